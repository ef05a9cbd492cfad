import { attachDocuments } from './attach-documents';
import { commitLedger } from './commit-ledger';
import type { ActivityDeps } from './deps';
import { withHeartbeat } from './heartbeat';
import { persistEvents } from './persist-events';
import { recalculateTimeline } from './recalculate-timeline';
import { recordBatchStatus } from './record-batch-status';

export type { ActivityDeps };

/**
 * The pipeline's activities, with their dependencies, so tests can build them against any database.
 * The reconciler's (batches/start-stranded-batches.ts) is the batch use case's; the worker registers
 * it beside these.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    recordBatchStatus: recordBatchStatus(deps),
    persistEvents: withHeartbeat(persistEvents(deps)),
    attachDocuments: withHeartbeat(attachDocuments(deps)),
    recalculateTimeline: withHeartbeat(recalculateTimeline(deps)),
    commitLedger: withHeartbeat(commitLedger(deps)),
  };
}

export type Activities = ReturnType<typeof createActivities>;
