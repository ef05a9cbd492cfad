import { PROBLEM_JSON, preferWaitHeader, problemExample, problemResponse } from '../openapi/components';
import { taggedOperation } from '../openapi/operation';
import { EXAMPLE_BATCH_ID } from '../events/openapi';
import { onePageExample } from '../paging';
import {
  abandonBody,
  abandonRefusedResponse,
  batchDetail,
  batchIdParam,
  batchListResponse,
  listQuery,
  retryAcceptedResponse,
  retryRefusedResponse,
  showQuery,
} from './schema';

const operation = taggedOperation('Batches');

const RETRY_ID = '7a1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';

const failed = {
  batchId: EXAMPLE_BATCH_ID,
  idempotencyKey: 'erp-order-4711',
  account: 'ACME',
  mode: 'async',
  status: 'Failed',
  eventCount: 1,
  submittedAt: '2024-03-02T08:00:01.120Z',
  startedAt: '2024-03-02T08:00:01.180Z',
  completedAt: '2024-03-02T08:00:01.410Z',
  ageSeconds: 3600,
  firstError: {
    index: 0,
    eventId: 'EV-2024-0002',
    code: 'InsufficientInventory',
    field: 'ProductInstances[0].Quantity',
    message:
      'Only 0 of product COD-WHOLE lot LOT-2024-001 are available at LOC-VESSEL-1 at 2024-03-02T08:00:00Z; 80 requested.',
  },
  retryOf: null,
  retriedBy: { batchId: RETRY_ID, status: 'Completed' },
  replacedBy: RETRY_ID,
  abandoned: null,
  failedImport: null,
  refusalAnswered: null,
  requestId: 'c0ffee00-1234-4abc-8def-0123456789ab',
  statusUrl: `/Integration/Batches/${EXAMPLE_BATCH_ID}`,
  workflowUrl: `http://127.0.0.1:8233/namespaces/default/workflows/batch-${EXAMPLE_BATCH_ID}`,
};

const validation = (field: string, message: string) =>
  problemResponse(`A query parameter is not valid; errors names it (${field}).`, 'invalid-request', {
    errors: { [field]: [message] },
  });

const notFound = problemResponse(
  'No batch with this id that the key can see (its own account; every account for a support key).',
  'unknown-batch',
  { detail: `No batch ${EXAMPLE_BATCH_ID} in this account.` },
);

export const batchesOperations = [
  operation({
    method: 'get',
    path: '/Integration/Batches',
    summary: 'List batches (newest first)',
    description:
      "The event batches of the key's account, newest first, with where each is and why it failed. A support key " +
      "(`npm run apikey -- create --role support`) sees every account's; Account narrows to one. An Accepted or Running " +
      'batch with a large ageSeconds is stuck: see README.md, Support.',
    query: listQuery,
    responses: {
      200: {
        description: 'One page of batches.',
        schema: batchListResponse,
        example: onePageExample(failed),
      },
      400: validation('Status', 'Status must be one of: Accepted, Running, Completed, Failed.'),
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Batches/{id}',
    summary: 'One batch, with every error',
    description:
      'Like an entry of the list, plus `errors` (every reason a Failed batch was rejected); `include=request` adds the stored request. ' +
      'With `Prefer: wait=N` a batch still under way (a retry, say) is answered once it has finished, or after at most N seconds, instead of at once.',
    pathParams: batchIdParam,
    query: showQuery,
    headers: preferWaitHeader,
    responses: {
      200: {
        description: 'The batch.',
        schema: batchDetail,
        headers: ['Preference-Applied'],
        example: { ...failed, errors: [failed.firstError] },
      },
      400: validation('include', 'include must be one of: request.'),
      404: notFound,
    },
  }),
  operation({
    method: 'post',
    path: '/Integration/Batches/{id}/retry',
    summary: 'Retry a failed batch',
    description:
      'Runs the events a Failed batch stored as a new batch (mode retry, retryOf the original), once the cause is fixed ' +
      '(a missing commission sent, a product created). Answers 202 like POST /Integration/Events/async; follow statusUrl. ' +
      "The original then shows the retry as retriedBy. This, not Temporal's Reset, is how a batch is run again.",
    pathParams: batchIdParam,
    responses: {
      202: {
        description: 'The retry was stored and its workflow started.',
        schema: retryAcceptedResponse,
        example: {
          message: 'The batch was accepted; follow statusUrl for its result.',
          batchId: RETRY_ID,
          status: 'Accepted',
          statusUrl: `/Integration/Batches/${RETRY_ID}`,
          retryOf: EXAMPLE_BATCH_ID,
        },
      },
      404: notFound,
      409: {
        description:
          'Not retried: the batch is not Failed, a retry of it already completed, one is under way (retriedBy names that retry), ' +
          'it was replaced (its events are stored since by another batch, replacedBy names it: a retry would fail on DuplicateEventId), it was abandoned, ' +
          'or it is a batch of a spreadsheet import that failed before its batches were started (failedImport; running it alone would store part of the import: upload the file again).',
        contentType: PROBLEM_JSON,
        schema: retryRefusedResponse,
        example: problemExample('batch-not-retryable', {
          detail: `Batch ${EXAMPLE_BATCH_ID} was already retried successfully as batch ${RETRY_ID}.`,
          batchId: EXAMPLE_BATCH_ID,
          retriedBy: { batchId: RETRY_ID, status: 'Completed' },
          replacedBy: RETRY_ID,
        }),
      },
      503: problemResponse(
        'The retry is stored but Temporal could not be asked to run it now; the reconciler starts it. `batchId` is the retry, `statusUrl` its `/Integration/Batches/{id}`.',
      ),
    },
  }),
  operation({
    method: 'post',
    path: '/Integration/Batches/{id}/abandon',
    summary: 'Abandon a failed batch (support key)',
    description:
      'Marks a Failed batch Abandoned: nobody will send it again (a test batch, events the sender gave up on). It is kept as it is, ' +
      'with the reason, the time and the key id (`abandoned` in GET .../{id} and the list, shown on /support), leaves the open failed batches ' +
      'and traceability_batches_failed_open, and is no longer retried. The action is logged with the key id. ' +
      'A batch whose events were stored since by another batch needs no abandoning: it shows as replaced (replacedBy).',
    pathParams: batchIdParam,
    requestBody: {
      schema: abandonBody,
      example: { Reason: 'Test batch sent to production by mistake; the sender confirmed.' },
    },
    responses: {
      200: {
        description: 'The batch, now with `abandoned`.',
        schema: batchDetail,
        example: {
          ...failed,
          retriedBy: null,
          replacedBy: null,
          abandoned: {
            reason: 'Test batch sent to production by mistake; the sender confirmed.',
            at: '2024-03-02T09:12:00.000Z',
            keyId: '0b9f3c52-7d0e-4e54-9a61-3f1c2b7d8e90',
          },
          errors: [failed.firstError],
        },
      },
      400: problemResponse(
        'Reason is missing, blank, too long, or the body has another field; errors names it.',
        'invalid-request',
        { errors: { Reason: ['Reason is required.'] } },
      ),
      403: problemResponse('The key is not a support key.', 'support-key-required'),
      404: notFound,
      409: {
        description:
          'Not abandoned: the batch is not Failed, is abandoned already, has a retry under way, or was replaced (replacedBy names the batch that stored its events).',
        contentType: PROBLEM_JSON,
        schema: abandonRefusedResponse,
        example: problemExample('batch-not-abandonable', {
          detail: `Batch ${EXAMPLE_BATCH_ID} was replaced: its events are stored already, by batch ${RETRY_ID}. Nothing to abandon.`,
          batchId: EXAMPLE_BATCH_ID,
          replacedBy: RETRY_ID,
        }),
      },
    },
  }),
];
