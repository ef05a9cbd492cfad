import { Context } from '@temporalio/activity';
import type { Transaction } from 'sequelize';
import { oweStreamReports } from '../db/repositories/epcis-queries';
import { endpointsOwed, oweBatchNotifications } from '../db/repositories/webhooks';
import { wakeWebhookEndpoint } from '../platform/webhooks';
import type { ActivityDeps } from './deps';

const DEFAULT_RETRY_SECONDS = 72 * 3600;

/**
 * Runs `finish` (the statement that writes a batch's final status) in a transaction that also owes the
 * batch's webhook notifications and its EPCIS stream subscriptions' reports, then wakes the endpoints owed one. The wake-up runs on every call, also
 * when `finish` changed nothing: an attempt that died between its commit and its signal is retried by
 * Temporal, and this retry signals what the first did not.
 */
export async function withBatchWebhooks<T>(
  deps: ActivityDeps,
  batchId: string,
  finish: (transaction: Transaction) => Promise<T>,
): Promise<T> {
  const { sequelize } = deps;
  const result = await sequelize.transaction(async (transaction) => {
    const finished = await finish(transaction);
    await oweBatchNotifications(sequelize, batchId, transaction);
    await oweStreamReports(sequelize, batchId, transaction);
    return finished;
  });
  const endpoints = await endpointsOwed(sequelize, `batch:${batchId}`);
  if (endpoints.length) {
    const { client, info } = Context.current();
    for (const endpointId of endpoints) {
      await wakeWebhookEndpoint(client, info.taskQueue, endpointId, {
        retrySeconds: deps.webhooks?.retrySeconds ?? DEFAULT_RETRY_SECONDS,
      });
    }
  }
  return result;
}
