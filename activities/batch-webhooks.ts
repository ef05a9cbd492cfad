import { Context } from '@temporalio/activity';
import type { Transaction } from 'sequelize';
import { finishBatch } from '../db/repositories/batch-notifications';
import { wakeWebhookEndpoints } from '../platform/webhooks';
import type { ActivityDeps } from './deps';

/** A pipeline step's `finishBatch`: the endpoints owed a notification are woken on the step's task queue. */
export async function withBatchWebhooks<T>(
  deps: ActivityDeps,
  batchId: string,
  finish: (transaction: Transaction) => Promise<T>,
): Promise<T> {
  const { result, owed } = await finishBatch(deps.sequelize, batchId, finish);
  if (owed.length) {
    const { client, info } = Context.current();
    await wakeWebhookEndpoints(client, info.taskQueue, owed, deps.webhooks);
  }
  return result;
}
