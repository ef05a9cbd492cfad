import { PROBLEM_JSON, preferWaitHeader, problemExample, problemResponse } from '../openapi/components';
import { taggedOperation, type ResponseSpec } from '../openapi/operation';
import { requestExamples } from './examples';
import { eventsBody } from '../../domain/schemas/events';
import {
  batchAcceptedResponse,
  batchNotStartedResponse,
  batchRejectedResponse,
  batchStatusResponse,
  eventsCreatedResponse,
  idempotencyHeaders,
  batchIdParams,
} from './schema';

const operation = taggedOperation('Events');

/** The batch the examples of events, batches and webhooks name. */
export const EXAMPLE_BATCH_ID = '5d6e7f80-9a1b-4c2d-8e3f-405162738495';

const created = {
  message: '1 event created.',
  batchId: EXAMPLE_BATCH_ID,
  result: [
    {
      id: '0b7f1f5e-1111-4222-8333-944444444444',
      externalEventId: 'EV-2024-0001',
      type: 'Commission',
      status: 'Created',
      eventDate: '2024-03-01T15:00:00+00:00',
      productInstances: [{ productId: 'COD-WHOLE', lotSerial: 'LOT-2024-001', quantity: 1200 }],
      documentsNotAttached: null,
    },
  ],
};

const rejected = {
  message: 'The batch was rejected: 1 error; nothing was stored.',
  result: [],
  errors: [
    {
      index: 0,
      eventId: 'EV-2024-0002',
      code: 'InsufficientInventory',
      field: 'ProductInstances[0].Quantity',
      message:
        'Only 50 of product COD-WHOLE lot LOT-2024-001 are available at LOC-VESSEL-1 at 2024-03-02T08:00:00Z; 80 requested.',
      product: 'COD-WHOLE',
      lotSerial: 'LOT-2024-001',
      location: 'LOC-VESSEL-1',
      requested: 80,
      available: 50,
    },
  ],
};

const rejectedResponse = {
  description:
    'The batch was rejected as a whole (schema, time, unknown entities, duplicate ids, insufficient inventory): nothing was stored. One answer lists every problem of every event.',
  schema: batchRejectedResponse,
  example: rejected,
};

const accepted = {
  message: 'The batch was accepted; follow statusUrl for its result.',
  batchId: EXAMPLE_BATCH_ID,
  status: 'Accepted',
  statusUrl: `/Integration/Events/async/${EXAMPLE_BATCH_ID}`,
};

const keyReusedText = `Idempotency-Key erp-export-2024-03-01-001 was first used with a different request body (batch ${EXAMPLE_BATCH_ID}); send a new key for a new batch.`;
const keyReused = problemResponse(
  'The Idempotency-Key was first used with a different body: a key stands for one request. Nothing was stored.',
  'idempotency-key-reused',
  { detail: keyReusedText, errors: { 'Idempotency-Key': [keyReusedText] } },
);

export const notStarted: ResponseSpec = {
  description:
    'The batch is stored, but Temporal could not be asked to process it now (unreachable, or it refused). ' +
    'Nothing more is needed: a reconciler starts every batch left waiting; follow statusUrl. The same Idempotency-Key again is safe.',
  contentType: PROBLEM_JSON,
  schema: batchNotStartedResponse,
  example: problemExample('batch-not-started', {
    detail:
      'The batch was stored but its processing could not be started now; it is started automatically within 120 seconds. Follow statusUrl for its result.',
    batchId: EXAMPLE_BATCH_ID,
    statusUrl: accepted.statusUrl,
  }),
};

/** A sync call whose batch outlasts SYNC_WAIT_SECONDS answers like the async endpoint. */
export const stillRunning: ResponseSpec = {
  description: 'The batch is still under way after SYNC_WAIT_SECONDS (30 by default): follow statusUrl for its result.',
  schema: batchAcceptedResponse,
  example: accepted,
};

/** What the schema's allOf/if-then says per `$type`, in words a reader of /docs finds first. */
const FIELDS_BY_TYPE =
  ' Fields by `$type`: commission, observe and decommission take `ProductInstances`; receive `ProductInstances` and optionally `SourceLocation` (ship-from); ' +
  'ship `ProductInstances` and `DestinationLocation` (ship-to); transform `InputProducts` and `OutputProducts`; aggregation and disaggregation ' +
  '`ParentLotSerial` (the container), optionally its `Product`, and `ChildProductInstances`. The Examples list below the request body has one complete request per type.';

/** What both submitting endpoints take (the header as the validate middleware checks it), and the refusals they share. */
const submission = { headers: idempotencyHeaders, requestBody: { schema: eventsBody, examples: requestExamples() } };
const refusals = { 400: rejectedResponse, 422: keyReused, 503: notStarted };

export const eventsOperations = [
  operation({
    method: 'post',
    path: '/Integration/Events',
    summary: 'Create events (waits for the pipeline)',
    description:
      'Runs the batch through the durable pipeline (persist with inventory check, attach documents, recalculate the timeline, ledger) ' +
      'and answers with its result. All or nothing. The call waits at most SYNC_WAIT_SECONDS (30 by default); a batch still ' +
      'under way then is answered 202 exactly like the async endpoint, and finishes on its own.' +
      FIELDS_BY_TYPE,
    ...submission,
    responses: {
      200: { description: 'Every event was created.', schema: eventsCreatedResponse, example: created },
      202: stillRunning,
      ...refusals,
    },
  }),
  operation({
    method: 'post',
    path: '/Integration/Events/async',
    summary: 'Create events (answers at once)',
    description:
      'Starts the same pipeline and answers 202; follow statusUrl for the outcome. Schema errors are still answered at once with 400, listing the other events’ problems too (unknown entities, duplicate ids, inventory).' +
      FIELDS_BY_TYPE,
    ...submission,
    responses: {
      202: {
        description: 'The batch was accepted (or, with a known Idempotency-Key, had been).',
        schema: batchAcceptedResponse,
        example: accepted,
      },
      ...refusals,
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Events/async/{batchId}',
    summary: 'Status of an async batch',
    description:
      'With `Prefer: wait=N` a batch still under way is answered once it has finished, or after at most N seconds, instead of at once.',
    pathParams: batchIdParams,
    headers: preferWaitHeader,
    responses: {
      200: {
        description: 'Where the batch is; when Completed, `result` is what the sync endpoint would have answered.',
        schema: batchStatusResponse,
        headers: ['Preference-Applied'],
        example: {
          batchId: EXAMPLE_BATCH_ID,
          status: 'Completed',
          message: 'Every event was stored; result lists them.',
          submittedAt: '2024-03-01T15:00:01.120Z',
          completedAt: '2024-03-01T15:00:01.410Z',
          result: created.result,
          errors: null,
          retriedBy: null,
        },
      },
      404: problemResponse('No batch with this id in the account.', 'unknown-batch', {
        detail: 'No batch 5d6e7f80 in this account.',
      }),
    },
  }),
];
