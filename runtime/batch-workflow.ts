import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import { ApplicationFailure, WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { BatchError, ProcessEventBatchInput } from '../workflows/contracts';
import type { processEventBatch } from '../workflows';
import { ACCOUNT_NAME, BATCH_ID } from './search-attributes';

/**
 * Starts processEventBatch under `workflowId`, or attaches to the run that already has that id: a
 * running one is used as it is, a closed one is never started again (so an Idempotency-Key replays the
 * first result instead of running the batch twice).
 */
export async function startBatchWorkflow(
  client: Client,
  taskQueue: string,
  workflowId: string,
  input: ProcessEventBatchInput,
): Promise<WorkflowHandle<typeof processEventBatch>> {
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
      memo: { accountId: input.accountId, accountName: input.accountName, batchId: input.batchId, events: input.events.length },
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
