import { attachDocuments } from './attach-documents';
import { commitLedger } from './commit-ledger';
import { deliverWebhook, markWebhookFailing, nextWebhookDelivery } from './deliver-webhook';
import type { ActivityDeps } from './deps';
import { oweScheduledReport } from './epcis-reports';
import { followUpRecall } from './follow-up-recall';
import { withHeartbeat } from './heartbeat';
import { takeImportChunks } from './import-chunks';
import { persistEvents } from './persist-events';
import { recalculateTimeline } from './recalculate-timeline';
import { recordBatchStatus } from './record-batch-status';
import { recordImportFailed, splitImport } from './split-import';

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
    deliverWebhook: withHeartbeat(deliverWebhook(deps)),
    nextWebhookDelivery: nextWebhookDelivery(deps),
    markWebhookFailing: markWebhookFailing(deps),
    oweScheduledReport: withHeartbeat(oweScheduledReport(deps)),
    takeImportChunks: takeImportChunks(deps),
    splitImport: withHeartbeat(splitImport(deps)),
    recordImportFailed: recordImportFailed(deps),
    followUpRecall: followUpRecall(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
