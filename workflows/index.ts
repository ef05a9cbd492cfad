export { processEventBatch } from './process-event-batch';
