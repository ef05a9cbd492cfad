import { log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ProcessEventBatchInput, ProcessEventBatchResult } from './contracts';

const { acknowledgeBatch } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '5 seconds', maximumAttempts: 10 },
});

/** The durable event pipeline: one workflow per batch of events. */
export async function processEventBatch(input: ProcessEventBatchInput): Promise<ProcessEventBatchResult> {
  const { workflowId } = workflowInfo();
  log.info('batch received', { batchId: input.batchId, workflowId, account: input.accountName });
  return acknowledgeBatch({ batchId: input.batchId, eventCount: input.events.length });
}
