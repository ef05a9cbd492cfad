import type { ReportEpcisSubscriptionInput } from '../../domain/webhook-contracts';
import { reportEpcisSubscription } from '../../workflows/report-epcis-subscription';
import { timeSkippingEnvironment, withStubWorker } from '../helpers/workflow-env';

/** One run of a scheduled subscription, with a stub activity: what it owes is keyed by the run. */
describe('reportEpcisSubscription', () => {
  const env = timeSkippingEnvironment();

  it('owes the report keyed by its run (schedule:<workflow id>), so a retried run owes it once', async () => {
    const owed: (ReportEpcisSubscriptionInput & { runKey: string })[] = [];
    let attempts = 0;
    await withStubWorker(
      env(),
      {
        oweScheduledReport: async (input: ReportEpcisSubscriptionInput & { runKey: string }) => {
          owed.push(input);
          if (++attempts === 1) throw new Error('no database');
        },
      },
      (taskQueue) =>
        env().client.workflow.execute(reportEpcisSubscription, {
          taskQueue,
          workflowId: 'epcis-subscription-s1-2026-12-06T18:00:00Z',
          args: [{ subscriptionId: 's1', retrySeconds: 20 }],
        }),
    );
    const run = {
      subscriptionId: 's1',
      retrySeconds: 20,
      runKey: 'schedule:epcis-subscription-s1-2026-12-06T18:00:00Z',
    };
    expect(owed).toEqual([run, run]);
  });
});
