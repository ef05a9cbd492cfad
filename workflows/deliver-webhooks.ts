import {
  ActivityFailure,
  condition,
  defineSignal,
  log,
  makeContinueAsNewFunc,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
  type RetryPolicy,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { deliveriesTaskQueueOf } from '../domain/task-queues';
import type { DeliverWebhooksInput } from '../domain/webhook-contracts';

/** Sent after every commit that owes the endpoint something (and by a redelivery or a deletion). */
export const wakeSignal = defineSignal('wake');

/** Reading and bookkeeping in PostgreSQL: retried until the database answers. */
const bookkeeping = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;
/**
 * As local activities they run inside the workflow task that asks for them: a delivery is one activity
 * task and two workflow tasks, not three and four. A recall to 99 endpoints queued 297 activity tasks on
 * the worker's three slots, and its last webhook arrived 8 s after the recall was answered.
 */
const local = proxyLocalActivities<Activities>(bookkeeping);
/** What a workflow started before the patch below replays: its history has them as activity tasks. */
const remote = proxyActivities<Activities>(bookkeeping);

/** A missed wake-up (the API died between its commit and its signal) is picked up this late at most. */
const IDLE = '1 hour';
/** Well under Temporal's limits: an endpoint that has delivered for months still replays in an instant. */
const MAX_HISTORY_EVENTS = 2_000;

/**
 * One workflow per webhook endpoint (`webhook-<endpointId>`): delivers what the endpoint is owed, oldest
 * first, one at a time, so a receiver sees its notifications in order. Each delivery is one activity
 * whose retry policy is the whole retry schedule (backoff up to retrySeconds, 72 hours by default);
 * when it runs out, the endpoint is marked failing and the workflow waits for a redelivery.
 */
export async function deliverWebhooks(input: DeliverWebhooksInput): Promise<void> {
  const { endpointId, retrySeconds } = input;
  const retry: RetryPolicy = {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: `${Math.max(1, Math.min(3600, Math.floor(retrySeconds / 10)))} seconds`,
  };
  const { deliverWebhook } = proxyActivities<Activities>({
    // The POST is cut at 10 s; name resolution and the attempt's row fit in the rest.
    startToCloseTimeout: '30 seconds',
    // A worker killed mid-delivery is noticed within seconds and the attempt runs again elsewhere.
    heartbeatTimeout: '5 seconds',
    scheduleToCloseTimeout: `${retrySeconds} seconds`,
    retry,
  });

  const { nextWebhookDelivery, markWebhookFailing } = patched('webhook-bookkeeping-local') ? local : remote;
  let woken = false;
  setHandler(wakeSignal, () => {
    woken = true;
  });
  for (;;) {
    // Cleared before the read: a notification committed after it comes with a signal that sets it again.
    woken = false;
    const next = await nextWebhookDelivery(endpointId);
    if (next.kind === 'gone') return;
    if (next.kind === 'deliver') {
      try {
        await deliverWebhook({ endpointId, deliveryId: next.deliveryId });
      } catch (error) {
        if (!(error instanceof ActivityFailure)) throw error;
        const reason = error.cause?.message ?? error.message;
        log.warn('webhook endpoint failing', { endpointId, deliveryId: next.deliveryId, reason });
        await markWebhookFailing({ endpointId, deliveryId: next.deliveryId, reason });
      }
    } else {
      await condition(() => woken, IDLE);
    }
    const info = workflowInfo();
    // On the deliveries' task queue: one started on another queue (before that queue was there) moves to it here.
    if (info.continueAsNewSuggested || info.historyLength > MAX_HISTORY_EVENTS)
      await makeContinueAsNewFunc<typeof deliverWebhooks>({ taskQueue: deliveriesTaskQueueOf(info.taskQueue) })(input);
  }
}
