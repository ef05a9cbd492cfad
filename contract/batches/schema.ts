/**
 * Schemas of /Integration/Batches: the batches an account sent (all accounts' for a support key), and
 * the retry of a failed one. The same objects validate requests and become the OpenAPI document.
 */
import { allRequired, closedObject, requiredObject } from '../openapi/schema';
import { ref } from '../openapi/components';
import { MAX_PAGE_SIZE, pageBodySchema, pageQuerySchema } from '../paging';
import { ABANDON_REASON_MAX_LENGTH, batchErrorSchema } from '../../domain/batch-errors';
import { retryRef } from '../events/schema';
import { nullableText } from '../../domain/schemas/text';

const STATUSES = ['Accepted', 'Running', 'Completed', 'Failed'] as const;

export const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    Status: { enum: STATUSES, description: 'Only batches in this status.' },
    Since: {
      type: 'string',
      format: 'date-time',
      description: 'Only batches submitted at or after this time (ISO 8601 with an offset).',
      example: '2024-03-01T00:00:00Z',
    },
    Account: {
      type: 'string',
      minLength: 1,
      description: "Only this account's batches (a support key; an account key sees its own account only).",
    },
    ...pageQuerySchema.properties,
  },
} as const;

export const showQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    include: {
      enum: ['request'],
      description: '`request` adds the request as stored (its Events), which can be large.',
    },
  },
} as const;

export const batchIdParam = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1, description: 'The batchId (of a 202 answer, or of this list).' } },
} as const;

const time = (description: string) => ({ type: ['string', 'null'], description }) as const;

/** An object of the properties given, all required and no others, or null. */
const closedOrNull = <const Properties extends Record<string, unknown>>(properties: Properties) =>
  ({ oneOf: [closedObject(properties), { type: 'null' }] }) as const;

const summaryProperties = {
  batchId: { type: 'string', description: 'The service id of the batch.' },
  idempotencyKey: nullableText(
    'Your own name for the batch: the Idempotency-Key it was sent with (null: sent without one; a retry has none). A batch of a ' +
      'spreadsheet import is named `import-<importId>-<n>`, its n-th part.',
    'march-catch-2024',
  ),
  account: { type: 'string', description: 'The account the batch belongs to.' },
  mode: {
    enum: ['sync', 'async', 'json', 'retry', 'epcis'],
    description:
      'How it was sent: POST /Integration/Events (sync), .../async, POST /Integration/JSON, a retry, or an EPCIS capture (POST /epcis/capture or /epcis/events).',
  },
  status: { enum: STATUSES },
  eventCount: { type: 'integer', minimum: 0 },
  submittedAt: { type: 'string' },
  startedAt: time('When the pipeline began (null while Accepted).'),
  completedAt: time('When it ended as Completed or Failed.'),
  ageSeconds: {
    type: 'integer',
    minimum: 0,
    description: 'Seconds since it was submitted: an Accepted or Running batch this old is stuck.',
  },
  firstError: {
    oneOf: [batchErrorSchema, { type: 'null' }],
    description: 'The first reason a Failed batch was rejected; errors (on GET .../{id}) lists all.',
  },
  retryOf: { type: ['string', 'null'], description: 'The failed batch this one runs again.' },
  retriedBy: retryRef,
  replacedBy: nullableText(
    'A Failed batch whose events are all stored since, by a retry, a retry of a retry or a new batch with the same event ids: the newest batch that stored them. Such a batch is replaced: nothing is left to do, and it is not retried.',
  ),
  abandoned: {
    ...closedOrNull({
      reason: { type: 'string', description: 'Why support gave up on it.' },
      at: { type: 'string', description: 'When.' },
      keyId: nullableText(
        'The id of the support key that abandoned it (as `npm run apikey -- list` shows it); null: with `npm run batch -- abandon`.',
      ),
    }),
    description:
      'A Failed batch support marked Abandoned (POST .../{id}/abandon): kept as it is, no longer open, not retried.',
  },
  failedImport: {
    ...closedOrNull({
      importId: { type: 'string', description: 'GET /Integration/Imports/{importId} for the import.' },
      reason: { type: 'string', description: 'Why the import failed.' },
    }),
    description:
      'A Failed batch of a spreadsheet import that failed before its batches were started: the batch never ran, nothing of the import is stored, and it is not retried (upload the file again).',
  },
  refusalAnswered: {
    ...closedOrNull({ at: { type: 'string', description: 'When the refusal was answered.' } }),
    description:
      'A Failed batch refused in the answer to the call that sent it and waited for it (POST /Integration/Events, /Integration/JSON, /epcis/events: a 400 with every error): its caller has the errors and sends the events again fixed, so it is no open case for support and not in traceability_batches_failed_open. It can still be retried. A call whose wait ran out (202) leaves an open case, like an async batch.',
  },
  requestId: nullableText('The X-Request-Id of the request that sent it: the log lines of that request carry it.'),
  statusUrl: { type: 'string', description: 'GET it (with the same key) for this batch.' },
  workflowUrl: {
    type: ['string', 'null'],
    description: "The batch's workflow in the Temporal UI; null when no UI is configured (TEMPORAL_UI_URL).",
  },
} as const;

export const batchSummary = closedObject(summaryProperties);

export const batchDetail = {
  type: 'object',
  required: [...batchSummary.required, 'errors'],
  additionalProperties: false,
  properties: {
    ...summaryProperties,
    errors: { type: ['array', 'null'], items: batchErrorSchema, description: 'When Failed: every reason.' },
    request: {
      type: 'object',
      description:
        'With include=request: the request as stored, { Events: [...] } (POST /Integration/JSON batches in the pipeline shape).',
      ...allRequired({ Events: { type: 'array', items: { type: 'object' } } }),
    },
  },
} as const;

export const batchListResponse = pageBodySchema(
  batchSummary,
  `One page of batches, newest first (at most ${MAX_PAGE_SIZE}).`,
);

/** 202 of a retry: the async endpoint's answer, plus the batch it retries. */
export const retryAcceptedResponse = requiredObject({
  message: { type: 'string' },
  batchId: { type: 'string', description: 'The new batch: the retry.' },
  status: { enum: ['Accepted'] },
  statusUrl: { type: 'string', description: 'GET it for the outcome of the retry.' },
  retryOf: { type: 'string', description: 'The failed batch it runs again.' },
});

/** 409 of a retry: a problem, with the batch and (when there is one) the retry that stands in the way. */
export const retryRefusedResponse = {
  type: 'object',
  allOf: [ref('Problem')],
  ...allRequired({
    detail: { type: 'string', description: 'Why the batch is not retried.' },
    batchId: { type: 'string' },
    retriedBy: retryRef,
    replacedBy: nullableText('When the batch was replaced: the batch that stored its events.'),
  }),
} as const;

export const abandonBody = closedObject({
  Reason: {
    type: 'string',
    minLength: 1,
    maxLength: ABANDON_REASON_MAX_LENGTH,
    description: 'Why the batch is given up on: kept with it, shown on /support and in GET .../{id}.',
    example: 'Test batch sent to production by mistake; the sender confirmed.',
  },
});

/** 409 of an abandon: a problem naming the batch, and the batch that replaced it when that is why. */
export const abandonRefusedResponse = {
  type: 'object',
  allOf: [ref('Problem')],
  ...allRequired({
    detail: { type: 'string', description: 'Why the batch is not abandoned.' },
    batchId: { type: 'string' },
    replacedBy: { type: ['string', 'null'] },
  }),
} as const;
