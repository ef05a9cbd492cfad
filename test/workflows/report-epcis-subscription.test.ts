import { TestWorkflowEnvironment } from '@temporalio/testing';
import { scheduleRanges } from '../../domain/epcis/subscription-schedule';
import type { ReportEpcisSubscriptionInput } from '../../domain/webhook-contracts';
import { createSubscriptionSchedule, deleteSubscriptionSchedule } from '../../platform/epcis-subscriptions';
import { reportEpcisSubscription } from '../../workflows/report-epcis-subscription';
import { timeSkippingEnvironment, withStubWorker } from '../helpers/workflow-env';

type Owed = ReportEpcisSubscriptionInput & { runKey: string };

/** A scheduled subscription's runs, with a stub activity: what each owes is keyed by the run. */
describe('reportEpcisSubscription', () => {
  const env = timeSkippingEnvironment();

  it('owes the report keyed by its run (schedule:<workflow id>), so a retried run owes it once', async () => {
    const owed: Owed[] = [];
    await withStubWorker(
      env(),
      {
        oweScheduledReport: async (input: Owed) => {
          owed.push(input);
          if (owed.length === 1) throw new Error('no database');
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

/**
 * The subscription's Temporal Schedule on the real dev server (the time-skipping server has no
 * Schedules): it starts a run at each time its schedule names, and none once deleted.
 */
describe("a scheduled subscription's Schedule", () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createLocal({
      server: { executable: { type: 'existing-path', path: process.env.TEMPORAL_CLI_PATH! } },
    });
  });
  afterAll(() => env?.teardown());

  it('starts a run every second for `second: 0/1`, each owing its own report, and none once deleted', async () => {
    const owed: Owed[] = [];
    const parsed = scheduleRanges({ second: '0/1' });
    if (!('ranges' in parsed)) throw new Error(JSON.stringify(parsed.issues));
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Runs after the deletion, while the worker still polls: a run started just before it has half a second to end.
    const afterDeletion = await withStubWorker(
      env,
      { oweScheduledReport: async (input: Owed) => void owed.push(input) },
      async (taskQueue) => {
        await createSubscriptionSchedule(env.client, taskQueue, 'sub-1', parsed.ranges, 20);
        const deadline = Date.now() + 15_000;
        while (owed.length < 2 && Date.now() < deadline) await pause(100);
        await deleteSubscriptionSchedule(env.client, 'sub-1');
        await pause(500);
        const deleted = owed.length;
        await pause(2000);
        return owed.length - deleted;
      },
    );
    expect(owed.length).toBeGreaterThanOrEqual(2);
    const [first, second] = owed.map(({ runKey }) => runKey);
    // The Schedule names each run after its time: schedule:epcis-subscription-sub-1-<time>.
    expect(first).toMatch(/^schedule:epcis-subscription-sub-1-\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(second).not.toBe(first);
    expect(owed[0]).toMatchObject({ subscriptionId: 'sub-1', retrySeconds: 20 });
    expect(afterDeletion).toBe(0);
  });
});
