import { RetryState, WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import {
  ActivityFailure,
  ApplicationFailure,
  executeChild,
  ParentClosePolicy,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import { ACCOUNT_NAME, BATCH_ID, BATCH_MODE, BATCH_STATUS } from '../domain/search-attribute-keys';
import type { Activities } from '../activities';
import type { ImportChunkBatch, SplitImportInput } from '../pipeline/contracts';
import { processEventBatch } from './process-event-batch';
import { atMost } from '../domain/at-most';

// The split step, for an import whose upload stored the file alone (locations and products, an upload of
// an earlier version). Reading a 20 MB file and storing its chunks takes seconds; it heartbeats, so a dead
// worker is noticed within the heartbeat timeout and another one starts over (the batches it stored are
// found again).
const { splitImport } = proxyActivities<Activities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

// One short read, as a local activity (in the workflow's own task, no round trip through the task queue),
// retried until the database answers (Temporal's default policy).
const { takeImportChunks } = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute' });

// One short transaction, retried until the database takes it (Temporal's default policy): a failed import never stays Accepted.
const { recordImportFailed } = proxyActivities<Activities>({ startToCloseTimeout: '1 minute' });

/** Why the split step failed, in the words the import's status shows. */
function reasonOf(failure: ActivityFailure): string {
  const cause = failure.cause?.message || failure.message;
  const attempts = failure.retryState === RetryState.MAXIMUM_ATTEMPTS_REACHED ? ' (gave up after 10 attempts)' : '';
  return `The file could not be split into batches${attempts}: ${cause}`;
}

export interface ProcessImportResult {
  batches: number;
  completed: number;
  failed: number;
}

/**
 * One chunk's batch, as the child of the import: the Temporal UI shows the import with its batches.
 * Abandoned, not cancelled, with the import: a batch stands on its own. Started already (the reconciler
 * got to it first) is no failure: the batch runs all the same, and its row says how it ended.
 */
async function runChunk(input: SplitImportInput, chunk: ImportChunkBatch): Promise<boolean> {
  try {
    await executeChild(processEventBatch, {
      workflowId: chunk.workflowId,
      args: [
        {
          batchId: chunk.batchId,
          accountId: input.accountId,
          accountName: input.accountName,
          requestId: input.requestId,
          eventCount: chunk.eventCount,
          localMaxEvents: input.localMaxEvents,
        },
      ],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      // An async batch's (batches/batch-workflow.ts): priority 3, the account's turn among the accounts.
      priority: { priorityKey: 3, fairnessKey: input.accountId },
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: [
        { key: ACCOUNT_NAME, value: input.accountName },
        { key: BATCH_ID, value: chunk.batchId },
        { key: BATCH_MODE, value: 'async' },
        { key: BATCH_STATUS, value: 'Accepted' },
      ],
      staticSummary: `${input.accountName} · import chunk ${chunk.seq + 1} · ${chunk.eventCount} event${chunk.eventCount === 1 ? '' : 's'}`,
    });
    return true;
  } catch (error) {
    return error instanceof WorkflowExecutionAlreadyStartedError;
  }
}

/**
 * At most this many of an import's batches run at once (as many as `npm run bench:imports`'s clients send
 * to POST /Integration/Events): ten batches of one file all at once crowd each other (CPU, the worker's
 * activity slots, the same timeline rows) and finish later than four at a time do.
 */
const CHUNKS_AT_ONCE = 4;

/**
 * The import's chunks, as batches: those its upload stored, in its transaction (an import of events), or
 * (locations and products) those the split step stores from the file. A split that fails for good fails
 * the import.
 */
async function chunksOf(input: SplitImportInput): Promise<ImportChunkBatch[]> {
  const stored = await takeImportChunks(input);
  if (stored) return stored;
  try {
    return await splitImport(input);
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    // Recorded on the import (and its chunks stored so far), then the workflow fails with the same
    // reason: the import's status says Failed, and the Temporal UI shows the run Failed with why.
    const reason = reasonOf(error);
    await recordImportFailed({ importId: input.importId, reason });
    throw ApplicationFailure.nonRetryable(reason, 'ImportFailed');
  }
}

/**
 * `import-<id>`: an uploaded spreadsheet's batches of at most 1,000 events (all or nothing each), run a few
 * side by side through the same pipeline as POST /Integration/Events. The import's progress is read from
 * its batches' rows. A split that fails for good (the file unreadable, or out of attempts) fails the
 * import, and this workflow, with the reason.
 */
export async function processImport(input: SplitImportInput): Promise<ProcessImportResult> {
  const chunks = await chunksOf(input);
  const outcomes = await atMost(CHUNKS_AT_ONCE, chunks, (chunk) => runChunk(input, chunk));
  const completed = outcomes.filter(Boolean).length;
  return { batches: chunks.length, completed, failed: chunks.length - completed };
}
