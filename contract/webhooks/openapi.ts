import { problemResponse } from '../openapi/components';
import { taggedOperation } from '../openapi/operation';
import { EXAMPLE_BATCH_ID } from '../events/openapi';
import { pageQueryErrorResponse, pageQuerySchema, onePageExample } from '../paging';
import {
  createdWebhookEndpoint,
  createWebhookBody,
  deliveryParams,
  webhookDelivery,
  webhookDeliveryList,
  webhookEndpoint,
  webhookEndpointList,
  webhookIdParam,
  listWebhooksQuery,
} from './schema';

const operation = taggedOperation('Webhooks');

const ENDPOINT_ID = '3b9d2f7e-6a1c-4e8b-9f20-5c4d3e2a1b0f';
const DELIVERY_ID = 'msg_2f1e0d9c8b7a69584736251403f2e1d0';

const endpoint = {
  id: ENDPOINT_ID,
  account: 'ACME',
  url: 'https://erp.example.com/hooks/traceability',
  events: ['batch.completed', 'batch.failed'],
  status: 'Active',
  failingSince: null,
  failingReason: null,
  pendingDeliveries: 0,
  createdTime: '2024-03-01T15:00:00.000Z',
};

const delivery = {
  id: DELIVERY_ID,
  type: 'batch.completed',
  status: 'Delivered',
  createdTime: '2024-03-02T08:00:01.410Z',
  deliveredTime: '2024-03-02T08:00:03.520Z',
  payload: {
    type: 'batch.completed',
    timestamp: '2024-03-02T08:00:01.410Z',
    data: {
      batchId: EXAMPLE_BATCH_ID,
      status: 'Completed',
      mode: 'async',
      eventCount: 2,
      errors: [],
    },
  },
  attempts: [
    {
      time: '2024-03-02T08:00:01.500Z',
      httpStatus: 503,
      error: 'the receiver answered 503',
      nextTry: '2024-03-02T08:00:02.500Z',
    },
    { time: '2024-03-02T08:00:03.520Z', httpStatus: 200, error: null, nextTry: null },
  ],
};

const notFound = problemResponse('No webhook endpoint with this id in the key’s account.', 'unknown-webhook-endpoint', {
  detail: `No webhook endpoint ${ENDPOINT_ID} in this account.`,
});

export const webhooksOperations = [
  operation({
    method: 'post',
    path: '/Integration/Webhooks',
    summary: 'Add a webhook endpoint',
    description:
      'Batch and recall notifications are POSTed to Url as JSON, signed the Standard Webhooks way (Webhook-Id, Webhook-Timestamp, ' +
      'Webhook-Signature: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret). The secret is in this answer only. ' +
      'Deliveries are retried with backoff for 72 hours, in order, each with a stable Webhook-Id to de-duplicate on.',
    requestBody: {
      schema: createWebhookBody,
      example: { Url: endpoint.url, Events: ['batch.completed', 'batch.failed'] },
    },
    responses: {
      201: {
        description: 'The endpoint, with its secret (shown this once).',
        schema: createdWebhookEndpoint,
        example: { ...endpoint, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      },
      400: problemResponse(
        'A field is missing, unknown or invalid (Url not https, or not a public address); `errors` names it.',
        'invalid-request',
        { errors: { Url: ['Url must use https (got http).'] } },
      ),
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Webhooks',
    summary: 'List webhook endpoints',
    description:
      'The account’s endpoints; a support key lists every account’s (Status=Failing: those support should look at).',
    query: listWebhooksQuery,
    responses: {
      200: { description: 'One page of endpoints.', schema: webhookEndpointList },
      400: problemResponse('A query parameter is not valid; `errors` names it.', 'invalid-request', {
        errors: { Status: ['Status must be one of: Active, Failing.'] },
      }),
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Webhooks/{id}',
    summary: 'One webhook endpoint',
    description:
      'Status Failing: a delivery ran out of retries; later ones wait (pendingDeliveries) until one is redelivered.',
    pathParams: webhookIdParam,
    responses: {
      200: { description: 'The endpoint (without its secret).', schema: webhookEndpoint, example: endpoint },
      404: notFound,
    },
  }),
  operation({
    method: 'delete',
    path: '/Integration/Webhooks/{id}',
    summary: 'Delete a webhook endpoint',
    description: 'Nothing more is sent to it; deliveries it was still owed are Cancelled.',
    pathParams: webhookIdParam,
    responses: {
      200: { description: 'Deleted: the endpoint as it was.', schema: webhookEndpoint, example: endpoint },
      404: notFound,
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Webhooks/{id}/deliveries',
    summary: 'Deliveries of a webhook endpoint, with every attempt',
    description:
      'Newest first. Each attempt shows its time, the receiver’s HTTP status or the error, and when Temporal tries next.',
    pathParams: webhookIdParam,
    query: pageQuerySchema,
    responses: {
      200: {
        description: 'One page of deliveries.',
        schema: webhookDeliveryList,
        example: onePageExample(delivery),
      },
      400: pageQueryErrorResponse,
      404: notFound,
    },
  }),
  operation({
    method: 'post',
    path: '/Integration/Webhooks/{id}/deliveries/{deliveryId}/redeliver',
    summary: 'Deliver a notification again',
    description:
      'Owes the delivery again, whatever became of it, under the same Webhook-Id, and lifts a Failing mark: the endpoint’s ' +
      'deliveries resume, oldest first.',
    pathParams: deliveryParams,
    responses: {
      202: {
        description: 'The delivery, Pending again.',
        schema: webhookDelivery,
        example: { ...delivery, status: 'Pending', deliveredTime: null },
      },
      404: problemResponse(
        'No such endpoint in the key’s account, or no such delivery of it.',
        'unknown-webhook-delivery',
        {
          detail: `No delivery ${DELIVERY_ID} for webhook endpoint ${ENDPOINT_ID}.`,
        },
      ),
    },
  }),
];
