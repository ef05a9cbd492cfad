import { Context } from '@temporalio/activity';
import { oweScheduledReport as owe } from '../db/repositories/epcis-queries';
import { wakeWebhookEndpoint } from '../platform/webhooks';
import type { ReportEpcisSubscriptionInput } from '../domain/webhook-contracts';
import type { ActivityDeps } from './deps';

/** A scheduled subscription's run: the report is owed in PostgreSQL first, then its delivery workflow woken. */
export const oweScheduledReport =
  ({ sequelize }: ActivityDeps) =>
  async ({
    subscriptionId,
    retrySeconds,
    runKey,
  }: ReportEpcisSubscriptionInput & { runKey: string }): Promise<void> => {
    if (!(await owe(sequelize, subscriptionId, runKey))) return;
    const { client, info } = Context.current();
    await wakeWebhookEndpoint(client, info.taskQueue, subscriptionId, { retrySeconds });
  };
