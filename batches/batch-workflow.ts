import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import { ApplicationFailure, WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { Batch, BatchMode } from '../db/models';
import type { BatchError, ProcessEventBatchInput } from '../workflows/contracts';
import type { processEventBatch } from '../workflows';
import { ACCOUNT_NAME, BATCH_ID, RETRY_OF } from '../platform/search-attributes';

/** What starting a stored batch's workflow needs: its workflow id, the reference it runs on, its size. */
export interface BatchStart {
  workflowId: string;
  input: ProcessEventBatchInput;
  eventCount: number;
  mode: BatchMode;
  /** The batch a retry runs again: set as the RetryOf search attribute and named in the summary. */
  retryOf: string | null;
}

/** What starting a batch's workflow takes, from its row and its account's name. */
export const batchStartOf = (
  batch: Pick<Batch, 'id' | 'accountId' | 'workflowId' | 'eventCount' | 'requestId' | 'mode' | 'retryOf'>,
  accountName: string,
): BatchStart => ({
  workflowId: batch.workflowId,
  eventCount: batch.eventCount,
  mode: batch.mode,
  retryOf: batch.retryOf,
  input: { batchId: batch.id, accountId: batch.accountId, accountName, requestId: batch.requestId },
});

/**
 * The line the Temporal UI shows for the workflow in its list, so an operator reads account, mode and
 * size without opening it: "ACME · sync · 500 events", "ACME · retry · 3 events · retry of <id>".
 */
export const batchSummaryOf = (start: BatchStart): string =>
  [start.input.accountName, start.mode, `${start.eventCount} event${start.eventCount === 1 ? '' : 's'}`, ...(start.retryOf ? [`retry of ${start.retryOf}`] : [])].join(' · ');

/**
 * Starts processEventBatch under the batch's workflow id, or attaches to the run that already has that
 * id: a running one is used as it is, a closed one is never started again (so an Idempotency-Key
 * replays the first result instead of running the batch twice). The API, the reconciler and
 * `batch retry` all start batches here.
 */
export const startBatchWorkflow = (client: Client, taskQueue: string, start: BatchStart): Promise<WorkflowHandle<typeof processEventBatch>> =>
  startUnder(client, taskQueue, start, WorkflowIdReusePolicy.REJECT_DUPLICATE);

/**
 * Runs a Running batch's workflow again after its run was closed without finishing it (an operator
 * terminated it, or it timed out): a new run under the same workflow id, or the one already running.
 * Only the reconciler does this. The events are stored, so persist answers from them and the later
 * steps (recalculation, ledger, status) complete the batch.
 */
export const resumeBatchWorkflow = (client: Client, taskQueue: string, start: BatchStart): Promise<WorkflowHandle<typeof processEventBatch>> =>
  startUnder(client, taskQueue, start, WorkflowIdReusePolicy.ALLOW_DUPLICATE);

async function startUnder(client: Client, taskQueue: string, start: BatchStart, reuse: WorkflowIdReusePolicy): Promise<WorkflowHandle<typeof processEventBatch>> {
  const { workflowId, input, eventCount, retryOf } = start;
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
        ...(retryOf ? [{ key: RETRY_OF, value: retryOf }] : []),
      ],
      memo: { accountId: input.accountId, accountName: input.accountName, batchId: input.batchId, events: eventCount, requestId: input.requestId, retryOf },
      staticSummary: batchSummaryOf(start),
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return client.workflow.getHandle<typeof processEventBatch>(workflowId);
    throw error;
  }
}

/** The error list of a batch the workflow rejected, or undefined for any other failure. */
export function rejectionOf(error: unknown): BatchError[] | undefined {
  if (!(error instanceof WorkflowFailedError)) return undefined;
  const cause = error.cause;
  if (cause instanceof ApplicationFailure && Array.isArray(cause.details?.[0])) {
    const errors = cause.details[0] as BatchError[];
    return errors.some((e) => e.code === 'InternalError') ? undefined : errors;
  }
  return undefined;
}
