export { processEventBatch } from './process-event-batch';
export { reconcileBatches } from './reconcile-batches';
export { processImport } from './process-import';
