import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import { ApplicationFailure, WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { Batch } from '../db/models';
import type { BatchError, ProcessEventBatchInput } from '../workflows/contracts';
import type { processEventBatch } from '../workflows';
import { ACCOUNT_NAME, BATCH_ID } from './search-attributes';

/** What starting a stored batch's workflow needs: its workflow id, the reference it runs on, its size. */
export interface BatchStart {
  workflowId: string;
  input: ProcessEventBatchInput;
  eventCount: number;
}

/** What starting a batch's workflow takes, from its row and its account's name. */
export const batchStartOf = (batch: Pick<Batch, 'id' | 'accountId' | 'workflowId' | 'eventCount' | 'requestId'>, accountName: string): BatchStart => ({
  workflowId: batch.workflowId,
  eventCount: batch.eventCount,
  input: { batchId: batch.id, accountId: batch.accountId, accountName, requestId: batch.requestId },
});

/**
 * Starts processEventBatch under the batch's workflow id, or attaches to the run that already has that
 * id: a running one is used as it is, a closed one is never started again (so an Idempotency-Key
 * replays the first result instead of running the batch twice). The API, the reconciler and
 * `batch retry` all start batches here.
 */
export async function startBatchWorkflow(client: Client, taskQueue: string, start: BatchStart): Promise<WorkflowHandle<typeof processEventBatch>> {
  const { workflowId, input, eventCount } = start;
  try {
    return await client.workflow.start<typeof processEventBatch>('processEventBatch', {
      taskQueue,
      workflowId,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      typedSearchAttributes: [
        { key: ACCOUNT_NAME, value: input.accountName },
        { key: BATCH_ID, value: input.batchId },
      ],
      memo: { accountId: input.accountId, accountName: input.accountName, batchId: input.batchId, events: eventCount, requestId: input.requestId },
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
