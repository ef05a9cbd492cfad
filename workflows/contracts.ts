/** Types shared by the API (which starts batches) and the workflow (which runs them). No runtime code. */

export interface ProcessEventBatchInput {
  batchId: string;
  accountId: string;
  accountName: string;
  events: unknown[];
}

export interface ProcessEventBatchResult {
  batchId: string;
  eventCount: number;
}
