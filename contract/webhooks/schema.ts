/**
 * Schemas of /Integration/Webhooks: an account's notification endpoints and their deliveries. The same
 * objects validate requests and become the OpenAPI document.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { closedObject } from '../openapi/schema';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook-contracts';
import { withLimits } from '../../domain/schemas/limits';
import { pageBodySchema, pageQuerySchema } from '../paging';

export const createWebhookBody = withLimits(
  closedObject({
    Url: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description:
        'Where notifications are POSTed: https to a public address (an operator can allow other hosts with WEBHOOK_ALLOWED_HOSTS).',
      example: 'https://erp.example.com/hooks/traceability',
    },
    Events: {
      type: 'array',
      minItems: 1,
      maxItems: WEBHOOK_EVENT_TYPES.length,
      uniqueItems: true,
      items: { enum: [...WEBHOOK_EVENT_TYPES] },
      description: 'The notifications this endpoint receives.',
      example: ['batch.completed', 'batch.failed'],
    },
  }),
);

export type CreateWebhookInput = FromSchema<typeof createWebhookBody>;

const time = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description }) as const;

const endpointProperties = {
  id: { type: 'string', format: 'uuid' },
  account: {
    type: 'string',
    description: 'The account the endpoint belongs to (a support key lists every account’s).',
  },
  url: { type: 'string' },
  events: { type: 'array', items: { enum: [...WEBHOOK_EVENT_TYPES] } },
  status: {
    enum: ['Active', 'Failing'],
    description: 'Failing: a delivery ran out of retries; nothing more is sent until one is redelivered.',
  },
  failingSince: time('When the endpoint was marked failing (null while Active).'),
  failingReason: { type: ['string', 'null'], description: 'The last error of the delivery that ran out of retries.' },
  pendingDeliveries: { type: 'integer', minimum: 0, description: 'Deliveries not yet delivered (Pending or Failed).' },
  createdTime: { type: 'string', format: 'date-time' },
} as const;

export const webhookEndpoint = closedObject(endpointProperties);

export const createdWebhookEndpoint = closedObject({
  ...endpointProperties,
  secret: {
    type: 'string',
    description: 'The signing secret (`whsec_` + base64), shown this once: keep it to verify Webhook-Signature.',
  },
});

export const webhookEndpointList = pageBodySchema(
  webhookEndpoint,
  'One page of the account’s webhook endpoints (every account’s for a support key), oldest first.',
);

export const listWebhooksQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    Status: {
      enum: ['Active', 'Failing'],
      description: 'Only endpoints in this status: Failing lists those whose deliveries ran out of retries.',
    },
    ...pageQuerySchema.properties,
  },
} as const;

export type ListWebhooksQuery = FromSchema<typeof listWebhooksQuery>;

export const webhookDelivery = closedObject({
  id: { type: 'string', description: 'The Webhook-Id header of every attempt: receivers de-duplicate on it.' },
  type: { enum: [...WEBHOOK_EVENT_TYPES] },
  status: {
    enum: ['Pending', 'Delivered', 'Failed', 'Cancelled'],
    description:
      'Pending: owed (being retried, or waiting behind an earlier one); Failed: ran out of retries; Cancelled: the endpoint was deleted.',
  },
  createdTime: { type: 'string', format: 'date-time' },
  deliveredTime: time('When a receiver answered 2xx.'),
  payload: { type: 'object', description: 'The body POSTed: `{ type, timestamp, data }`.' },
  attempts: {
    type: 'array',
    items: closedObject({
      time: { type: 'string', format: 'date-time' },
      httpStatus: { type: ['integer', 'null'], description: 'The receiver’s answer (null: none, see error).' },
      error: { type: ['string', 'null'] },
      nextTry: time('When Temporal tries again (null: delivered, or retries ran out).'),
    }),
  },
});

export const webhookDeliveryList = pageBodySchema(
  webhookDelivery,
  'One page of the endpoint’s deliveries, newest first, each with its attempts.',
);

export const webhookIdParam = {
  type: 'object',
  properties: {
    id: { type: 'string', minLength: 1, description: 'The endpoint id (of the POST answer, or of the list).' },
  },
} as const;

export const deliveryParams = {
  type: 'object',
  properties: {
    id: { type: 'string', minLength: 1, description: 'The endpoint id.' },
    deliveryId: { type: 'string', minLength: 1, description: 'The delivery id (Webhook-Id).' },
  },
} as const;
