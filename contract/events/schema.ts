/**
 * The event endpoints' headers, path ids and answers; what an event may carry is domain/schemas/events.ts.
 */
import { allRequired, requiredObject } from '../openapi/schema';
import { batchErrorSchema } from '../../domain/batch-errors';
import { EVENT_TYPES } from '../../domain/events';

/** `Idempotency-Key` (optional): a replay with the same key answers the same batch; blank is no key. */
export const idempotencyHeaders = {
  type: 'object',
  properties: {
    'Idempotency-Key': {
      type: 'string',
      pattern: '^[\\x21-\\x7e]{1,200}$',
      description:
        'Optional, 1 to 200 visible ASCII characters. The same key with the same body again returns the first outcome and stores nothing new; with another body it is a 422.',
      example: 'erp-export-2024-03-01-001',
    },
  },
} as const;

/** A batch's path id: anything but a UUID names no batch (404, as an unknown one). */
export const batchIdParams = requiredObject({
  batchId: {
    type: 'string',
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    description: 'The batchId of the 202 answer.',
  },
});

/** The GDST KDE warnings of one event (`domain/gdst.ts`), on the events routes' and POST /Integration/JSON's answers alike. */
export const gdstWarningsSchema = {
  type: 'array',
  description:
    'GDST Key Data Elements the event lacks where GDST asks for them (a wild-catch commission’s vessel, catch area, gear and ' +
    'fishing authorisation; every certificate’s type and number). Only present when there are some; the event was stored all the same.',
  items: requiredObject({ code: { enum: ['MissingGdstKde'] }, field: { type: 'string' }, message: { type: 'string' } }),
} as const;

const eventResult = {
  type: 'object',
  required: ['id', 'externalEventId', 'type', 'status', 'eventDate', 'productInstances', 'documentsNotAttached'],
  properties: {
    id: { type: 'string', description: 'Service id of the event (its URN is urn:uuid:<id>).' },
    externalEventId: { type: 'string', description: 'The Id sent.' },
    type: { enum: EVENT_TYPES },
    status: { enum: ['Created'] },
    eventDate: { type: 'string', description: 'UTC with a +00:00 offset.', example: '2024-03-01T15:00:00+00:00' },
    productInstances: {
      type: 'array',
      description: 'The lines as stored: transform inputs then outputs; aggregation children.',
      items: requiredObject({
        productId: { type: 'string', description: "The caller's product Id." },
        lotSerial: { type: 'string' },
        quantity: { type: 'number' },
      }),
    },
    documentsNotAttached: {
      type: ['array', 'null'],
      description: 'Null when every DocumentIds entry was attached or none was sent.',
      items: requiredObject({ documentId: { type: 'string' }, reason: { enum: ['DocumentNotFound'] } }),
    },
    warnings: gdstWarningsSchema,
  },
} as const;

export const eventsCreatedResponse = requiredObject({
  message: { type: 'string' },
  batchId: {
    type: 'string',
    description: 'The batch the events were stored in (GET /Integration/Events/async/{batchId} shows it again).',
  },
  result: { type: 'array', items: eventResult, description: 'One entry per event, in request order.' },
});

export const batchRejectedResponse = {
  type: 'object',
  description: 'The batch was rejected as a whole: nothing was stored.',
  ...allRequired({
    message: { type: 'string' },
    result: { type: 'array', maxItems: 0 },
    errors: { type: 'array', items: batchErrorSchema },
  }),
} as const;

export const batchAcceptedResponse = requiredObject({
  message: { type: 'string' },
  batchId: { type: 'string' },
  status: { enum: ['Accepted'] },
  statusUrl: {
    type: 'string',
    description: 'GET it for the outcome.',
    example: '/Integration/Events/async/0b7f1f5e-1111-4222-8333-944444444444',
  },
});

/** 503: the batch is stored but its workflow could not be started; the reconciler starts it. */
export const batchNotStartedResponse = {
  type: 'object',
  allOf: [{ $ref: '#/components/schemas/Problem' }],
  description: 'The batch is stored; its processing starts automatically. Follow statusUrl.',
  ...allRequired({ batchId: { type: 'string' }, statusUrl: { type: 'string' } }),
} as const;

/** The newest retry of a failed batch (POST /Integration/Batches/{id}/retry), or null. */
export const retryRef = {
  type: ['object', 'null'],
  required: ['batchId', 'status'],
  description:
    'The newest retry of this batch (POST /Integration/Batches/{id}/retry) and where it is; null when it was never retried.',
  properties: { batchId: { type: 'string' }, status: { enum: ['Accepted', 'Running', 'Completed', 'Failed'] } },
} as const;

export const batchStatusResponse = {
  type: 'object',
  required: ['batchId', 'status', 'submittedAt', 'completedAt', 'result', 'errors', 'retriedBy'],
  properties: {
    batchId: { type: 'string' },
    status: { enum: ['Accepted', 'Running', 'Completed', 'Failed'] },
    message: { type: 'string', description: 'What the status means, and what (if anything) the caller should do.' },
    submittedAt: { type: 'string' },
    completedAt: { type: ['string', 'null'] },
    result: {
      type: ['array', 'null'],
      items: eventResult,
      description: 'When Completed: exactly the result of the sync endpoint.',
    },
    errors: { type: ['array', 'null'], items: batchErrorSchema, description: 'When Failed: why.' },
    retriedBy: retryRef,
  },
} as const;
