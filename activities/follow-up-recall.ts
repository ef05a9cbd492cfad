import { Context } from '@temporalio/activity';
import { followUpRecall as followUp } from '../db/repositories/recalls';
import type { RecallFollowUpOutcome } from '../domain/recall-contracts';
import { wakeWebhookEndpoints } from '../platform/webhooks';
import type { ActivityDeps } from './deps';

/** One pass of a recall's follow-up (db/repositories/recalls.ts followUpRecall); the reminders' and overdue notices' endpoints are woken after its commit. */
export const followUpRecall =
  (deps: ActivityDeps) =>
  async (recallId: string): Promise<RecallFollowUpOutcome> => {
    const { endpoints, ...outcome } = await followUp(deps.sequelize, recallId);
    if (endpoints.length) {
      const { client, info } = Context.current();
      await wakeWebhookEndpoints(client, info.taskQueue, endpoints, deps.webhooks);
    }
    return outcome;
  };
