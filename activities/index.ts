import { attachDocuments } from './attach-documents';
import { commitLedger } from './commit-ledger';
import type { ActivityDeps } from './deps';
import { withHeartbeat } from './heartbeat';
import { persistEvents } from './persist-events';
import { recalculateTimeline } from './recalculate-timeline';
import { recordBatchStatus } from './record-batch-status';
import { splitImport } from './split-import';
import { startStrandedBatches } from './start-stranded-batches';

export type { ActivityDeps };

/** Activities get their dependencies here, so tests can build them against any database. */
export function createActivities(deps: ActivityDeps) {
  return {
    recordBatchStatus: recordBatchStatus(deps),
    persistEvents: withHeartbeat(persistEvents(deps)),
    attachDocuments: withHeartbeat(attachDocuments(deps)),
    recalculateTimeline: withHeartbeat(recalculateTimeline(deps)),
    commitLedger: withHeartbeat(commitLedger(deps)),
    startStrandedBatches: withHeartbeat(startStrandedBatches(deps)),
    splitImport: withHeartbeat(splitImport(deps)),
  };
}

export type Activities = ReturnType<typeof createActivities>;
