import * as workflows from '../../workflows';
import type { FollowRecallWorkflow } from '../../domain/recall-contracts';
import type { DeliverWebhooksWorkflow, ReportEpcisSubscriptionWorkflow } from '../../domain/webhook-contracts';

/**
 * The workflows that code below the workflows layer starts by name (platform/recalls.ts, webhooks.ts and
 * epcis-subscriptions.ts cannot import them): the worker registers each under that name, with the
 * signature those callers type their arguments by. A renamed workflow or a changed input fails here
 * (at compile time for the signatures).
 */
const startedByName: {
  followRecall: FollowRecallWorkflow;
  deliverWebhooks: DeliverWebhooksWorkflow;
  reportEpcisSubscription: ReportEpcisSubscriptionWorkflow;
} = workflows;

describe('workflows started by name', () => {
  it('are exported under the names their callers start them by', () => {
    for (const name of ['followRecall', 'deliverWebhooks', 'reportEpcisSubscription'] as const)
      expect({ name, exported: typeof startedByName[name] }).toEqual({ name, exported: 'function' });
  });
});
