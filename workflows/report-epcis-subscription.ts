import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ReportEpcisSubscriptionInput } from '../domain/webhook-contracts';

// A run reads its backlog a report at a time, which may take long (a first run from a distant
// initialRecordTime); its heartbeat says the worker is still at it.
const { oweScheduledReport } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One run of a scheduled EPCIS subscription (its Temporal Schedule starts it): owes the report of what
 * matched since the last run, keyed by this run, and wakes the subscription's delivery workflow, which
 * sends it like any other delivery (in order, retried, listed).
 */
export async function reportEpcisSubscription(input: ReportEpcisSubscriptionInput): Promise<void> {
  await oweScheduledReport({ ...input, runKey: `schedule:${workflowInfo().workflowId}` });
}
