import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ReconcileBatchesInput, ReconcileBatchesResult } from './contracts';

// A run that fails is followed by the schedule's next one: a few quick attempts are enough. The
// heartbeat matters: the schedule skips runs while one is open, so a run on a worker that died must
// time out within seconds, not hold the reconciler up for the whole startToCloseTimeout.
const { startStrandedBatches } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 3 },
});

/**
 * Run by the `reconcile-batches` Temporal Schedule (batches/reconciler.ts): starts the workflow of every
 * batch left `Accepted` (stored by the API, whose start of the workflow failed or never happened), and
 * runs again that of every batch left `Running` by a closed run (terminated after its events were stored).
 */
export async function reconcileBatches(input: ReconcileBatchesInput): Promise<ReconcileBatchesResult> {
  return startStrandedBatches(input);
}
