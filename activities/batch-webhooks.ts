import { Context } from '@temporalio/activity';
import type { Finished } from '../db/repositories/batch-notifications';
import { wakeWebhookEndpoints } from '../platform/webhooks';
import type { ActivityDeps } from './deps';

/** A pipeline step's finished batch (finishBatch, completeBatch): the endpoints owed a notification are woken on the step's task queue. */
export async function withBatchWebhooks<T>(deps: ActivityDeps, finishing: Promise<Finished<T>>): Promise<T> {
  const { result, owed } = await finishing;
  if (owed.length) {
    const { client, info } = Context.current();
    await wakeWebhookEndpoints(client, info.taskQueue, owed, deps.webhooks);
  }
  return result;
}
