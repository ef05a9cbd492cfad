import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Priority } from '@temporalio/common';
import type { Batch, BatchMode } from '../db/models';
import type { ProcessEventBatchInput } from '../pipeline/contracts';
import type { processEventBatch } from '../workflows';
import { syncTaskQueueOf } from '../domain/task-queues';
import { ACCOUNT_NAME, BATCH_ID, BATCH_MODE, BATCH_STATUS, RETRY_OF } from '../platform/search-attributes';

/**
 * What starting a batch's workflow takes (its workflow id, the reference it runs on, its size), from its
 * row, its account's name, and PIPELINE_LOCAL_MAX_EVENTS (the workflow runs the steps of a batch that size
 * or smaller as local activities).
 */
export const batchStartOf = (
  batch: Pick<Batch, 'id' | 'accountId' | 'workflowId' | 'eventCount' | 'requestId' | 'mode' | 'retryOf'>,
  accountName: string,
  localMaxEvents: number,
) => ({
  workflowId: batch.workflowId,
  eventCount: batch.eventCount,
  mode: batch.mode,
  /** The batch a retry runs again: set as the RetryOf search attribute and named in the summary. */
  retryOf: batch.retryOf,
  input: {
    batchId: batch.id,
    accountId: batch.accountId,
    accountName,
    requestId: batch.requestId,
    eventCount: batch.eventCount,
    localMaxEvents,
  } satisfies ProcessEventBatchInput,
});

type BatchStart = ReturnType<typeof batchStartOf>;

/**
 * The line the Temporal UI shows for the workflow in its list, so an operator reads account, mode and
 * size without opening it: "ACME · sync · 500 events", "ACME · retry · 3 events · retry of <id>".
 */
export const batchSummaryOf = (start: BatchStart): string =>
  [
    start.input.accountName,
    start.mode,
    `${start.eventCount} event${start.eventCount === 1 ? '' : 's'}`,
    ...(start.retryOf ? [`retry of ${start.retryOf}`] : []),
  ].join(' · ');

/**
 * The text the Temporal UI shows under "Details" on the workflow's page (Markdown): what the batch is,
 * where its status lives, and how to run it again. The page's main button on a Failed workflow is Reset,
 * which cannot run a batch again (its row is Failed already, so the reset run is refused): the text says
 * so where the operator is about to press it.
 */
export const batchDetailsOf = (start: BatchStart): string => {
  const { batchId, accountName, requestId } = start.input;
  return [
    `**Batch \`${batchId}\`** of account **${accountName}**: ${batchSummaryOf(start)}${requestId ? `, request \`${requestId}\`` : ''}.`,
    `Its status is the \`BatchStatus\` search attribute here, and \`GET /Integration/Batches/${batchId}\` (its account's key or a support key) or the support page \`/support\`.`,
    '',
    "**Failed? Retry the batch; do not use Reset.** A Failed workflow is the batch's answer (the failure's details hold its first error and how many there are; the batch lists them all) and the batch row is Failed already: a reset run is refused (`is not waiting to run`) and could not tell whether the cause was fixed. A retry makes a new batch with its own workflow (`RetryOf` names this one):",
    `- \`POST /Integration/Batches/${batchId}/retry\` (its account's key or a support key), or "Retry this batch" on the support page \`/support\``,
    `- \`npm run --silent batch -- retry ${batchId}\``,
  ].join('\n');
};

/**
 * Temporal's Priority (1 runs first, 3 is the default): a caller waiting on its answer (sync events, the
 * JSON endpoint) goes before batches nobody waits on (async, EPCIS capture jobs) and those before retries.
 * Anything else sharing the task queue (imports, deliveries) should start at 3 or lower priority (higher key).
 */
const PRIORITY_OF_MODE: Record<BatchMode, number> = { sync: 1, json: 1, async: 3, epcis: 3, retry: 4 };

/**
 * The batch's place in the task queue: its mode's priority, and its account as the fairness key, so that
 * within one priority Temporal's Task Queue Fairness dispatches accounts' tasks in turn instead of in
 * arrival order (one account's backlog no longer holds everyone else's). The activities the workflow
 * schedules inherit it.
 */
export const batchPriorityOf = (start: BatchStart): Priority => ({
  priorityKey: PRIORITY_OF_MODE[start.mode],
  fairnessKey: start.input.accountId,
});

/**
 * The largest sync batch the sync task queue (the API's own worker) takes. Its steps run in the API
 * process, beside every other request it answers: a one-event scan's take a few milliseconds, a
 * 500-event batch's a few hundred, which would hold up the API's other callers. Larger ones go to the
 * task queue of `npm run worker`, where they run as local activities too.
 */
export const SYNC_QUEUE_MAX_EVENTS = 50;

/** A batch somebody waits on, small enough for the API's own worker, whose steps run locally: a scan, say. */
const isSmallSync = (start: BatchStart): boolean =>
  (start.mode === 'sync' || start.mode === 'json') &&
  start.eventCount <= Math.min(SYNC_QUEUE_MAX_EVENTS, start.input.localMaxEvents);

/** The task queue a batch's workflow runs on: small sync batches have their own (syncTaskQueueOf). */
export const batchTaskQueueOf = (taskQueue: string, start: BatchStart): string =>
  isSmallSync(start) ? syncTaskQueueOf(taskQueue) : taskQueue;

/** How long a caller waits for a start: a hung Temporal must not hold it; the reconciler starts the workflow later. */
export const START_TIMEOUT_MS = 10_000;

/**
 * Starts processEventBatch under the batch's workflow id, or attaches to the run that already has that
 * id: a running one is used as it is, a closed one is never started again (so an Idempotency-Key
 * replays the first result instead of running the batch twice). The API, the reconciler and
 * `batch retry` all start batches here. `eager` (a client on the connection of a worker polling the
 * sync task queue, as the API's is) asks Temporal for a small sync batch's first workflow task in the
 * start's answer: that worker runs it at once, and Temporal dispatches it as usual when the worker has no
 * free slot.
 */
export const startBatchWorkflow = (
  client: Client,
  taskQueue: string,
  start: BatchStart,
  { eager = false }: { eager?: boolean } = {},
): Promise<WorkflowHandle<typeof processEventBatch>> =>
  startUnder(
    client,
    batchTaskQueueOf(taskQueue, start),
    start,
    WorkflowIdReusePolicy.REJECT_DUPLICATE,
    'Accepted',
    eager && isSmallSync(start),
  );

/**
 * Runs a Running batch's workflow again after its run was closed without finishing it (an operator
 * terminated it, or it timed out): a new run under the same workflow id, or the one already running.
 * Only the reconciler does this. The events are stored, so persist answers from them and the later
 * steps (recalculation, ledger, status) complete the batch.
 */
export const resumeBatchWorkflow = (
  client: Client,
  taskQueue: string,
  start: BatchStart,
): Promise<WorkflowHandle<typeof processEventBatch>> =>
  startUnder(client, batchTaskQueueOf(taskQueue, start), start, WorkflowIdReusePolicy.ALLOW_DUPLICATE, 'Running');

async function startUnder(
  client: Client,
  taskQueue: string,
  start: BatchStart,
  reuse: WorkflowIdReusePolicy,
  // The batch row's status when the run starts; the workflow keeps BatchStatus in step from there.
  status: 'Accepted' | 'Running' = 'Accepted',
  requestEagerStart = false,
): Promise<WorkflowHandle<typeof processEventBatch>> {
  const { workflowId, input, eventCount, retryOf, mode } = start;
  try {
    return await client.workflow.start<typeof processEventBatch>('processEventBatch', {
      taskQueue,
      workflowId,
      args: [input],
      workflowIdReusePolicy: reuse,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      typedSearchAttributes: [
        { key: ACCOUNT_NAME, value: input.accountName },
        { key: BATCH_ID, value: input.batchId },
        { key: BATCH_MODE, value: mode },
        { key: BATCH_STATUS, value: status },
        ...(retryOf ? [{ key: RETRY_OF, value: retryOf }] : []),
      ],
      memo: {
        accountId: input.accountId,
        accountName: input.accountName,
        batchId: input.batchId,
        events: eventCount,
        requestId: input.requestId,
        retryOf,
      },
      staticSummary: batchSummaryOf(start),
      staticDetails: batchDetailsOf(start),
      priority: batchPriorityOf(start),
      requestEagerStart,
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError)
      return client.workflow.getHandle<typeof processEventBatch>(workflowId);
    throw error;
  }
}
