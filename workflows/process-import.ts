import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import { executeChild, ParentClosePolicy, proxyActivities } from '@temporalio/workflow';
import { ACCOUNT_NAME, BATCH_ID, BATCH_MODE, BATCH_STATUS } from '../domain/search-attribute-keys';
import type { ImportChunkBatch, ProcessEventBatchInput, SplitImportInput } from './contracts';

// Reading a 20 MB file and storing its chunks takes seconds; it heartbeats, so a dead worker is noticed
// within the heartbeat timeout and another one starts over (the batches it stored are found again).
// The step's signature is spelt here rather than taken from activities/index.ts's Activities: that import
// would join the cycle activities → batches → workflows that start-stranded-batches makes today.
const { splitImport } = proxyActivities<{ splitImport(input: SplitImportInput): Promise<ImportChunkBatch[]> }>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

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
    // By name: its type would add a path to the import cycle activities → batches → workflows.
    await executeChild('processEventBatch', {
      workflowId: chunk.workflowId,
      args: [
        {
          batchId: chunk.batchId,
          accountId: input.accountId,
          accountName: input.accountName,
          requestId: input.requestId,
          eventCount: chunk.eventCount,
          localMaxEvents: input.localMaxEvents,
        } satisfies ProcessEventBatchInput,
      ],
      parentClosePolicy: ParentClosePolicy.ABANDON,
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
    if (error instanceof WorkflowExecutionAlreadyStartedError) return true;
    return false;
  }
}

/**
 * `import-<id>`: an uploaded spreadsheet, read from PostgreSQL and stored as batches of at most 1,000
 * events (all or nothing each), which then run side by side through the same pipeline as
 * POST /Integration/Events. The import's progress is read from its batches' rows.
 */
export async function processImport(input: SplitImportInput): Promise<ProcessImportResult> {
  const chunks = await splitImport(input);
  const outcomes = await Promise.all(chunks.map((chunk) => runChunk(input, chunk)));
  const completed = outcomes.filter(Boolean).length;
  return { batches: chunks.length, completed, failed: chunks.length - completed };
}
