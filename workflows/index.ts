export { processEventBatch } from './process-event-batch';
export { reconcileBatches } from './reconcile-batches';
export { deliverWebhooks } from './deliver-webhooks';
export { reportEpcisSubscription } from './report-epcis-subscription';
export { processImport } from './process-import';
export { followRecall } from './follow-recall';
