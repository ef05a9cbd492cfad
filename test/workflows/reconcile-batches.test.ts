import { Context } from '@temporalio/activity';
import type { ReconcileBatchesResult, StrandedBatchesInput } from '../../pipeline/contracts';
import { reconcileNowSignal, reconcilerSettingsSignal } from '../../workflows/reconciler-signals';
import { reconcileBatches } from '../../workflows/reconcile-batches';
import { timeSkippingEnvironment, withStubWorker } from '../helpers/workflow-env';

const NOTHING: ReconcileBatchesResult = { started: [], closed: [], resumed: [], importsStarted: [], importsFailed: [] };

/** reconcileBatches with a stub pass on the time-skipping test server: its pace, its signals, a failing pass. */
describe('reconcileBatches', () => {
  const env = timeSkippingEnvironment();

  /** The passes the stub saw: the server's time of each and the settings it ran with. */
  function stubPass(fail: (pass: number) => boolean = () => false) {
    const passes: { at: number; olderThanSeconds: number }[] = [];
    const startStrandedBatches = async ({ olderThanSeconds }: StrandedBatchesInput) => {
      const { attempt, currentAttemptScheduledTimestampMs: at } = Context.current().info;
      if (attempt === 1) passes.push({ at, olderThanSeconds });
      if (fail(passes.length)) throw new Error('no database');
      return { ...NOTHING, started: [`batch-${passes.length}`] };
    };
    return { passes, activities: { startStrandedBatches } };
  }
  const gapsOf = (passes: { at: number }[]) =>
    passes.slice(1).map((pass, i) => Math.round((pass.at - passes[i].at) / 1000));

  it('runs a pass every everySeconds, and one that fails is followed by the next on time', async () => {
    const { passes, activities } = stubPass((pass) => pass === 2);
    await withStubWorker(env(), activities, async (taskQueue) => {
      const handle = await env().client.workflow.start(reconcileBatches, {
        taskQueue,
        workflowId: 'reconciler-pace',
        args: [{ olderThanSeconds: 120, everySeconds: 300 }],
      });
      // Time skipping moves the server's clock through 21 minutes in a moment.
      await env().sleep('21 minutes');
      await handle.terminate();
    });
    expect(passes.length).toBeGreaterThanOrEqual(5);
    // The second pass failed after its attempts (1 s, then 2 s apart): the third still follows 5 minutes after it.
    expect(gapsOf(passes.slice(0, 2))).toEqual([300]);
    expect(gapsOf(passes.slice(2, 5))).toEqual([300, 300]);
    expect(passes.every((pass) => pass.olderThanSeconds === 120)).toBe(true);
  });

  it('new settings run a pass at once and set the pace; reconcileNow runs one at once', async () => {
    const { passes, activities } = stubPass();
    await withStubWorker(env(), activities, async (taskQueue) => {
      const handle = await env().client.workflow.start(reconcileBatches, {
        taskQueue,
        workflowId: 'reconciler-signals',
        args: [{ olderThanSeconds: 120, everySeconds: 3600 }],
      });
      await env().sleep('10 minutes');
      await handle.signal(reconcilerSettingsSignal, { olderThanSeconds: 30, everySeconds: 60 });
      await env().sleep('90 seconds');
      await handle.signal(reconcileNowSignal);
      await env().sleep('10 seconds');
      await handle.terminate();
    });
    expect(passes.map((pass) => pass.olderThanSeconds)).toEqual([120, 30, 30, 30]);
    // The first waits its hour; the settings' pass at once, the next a minute later, then reconcileNow's at once.
    const [first, settings, paced, now] = passes.map((pass) => pass.at);
    // Signals reach the server a moment after the time the test sleeps to: a second or two either way.
    expect((settings - first) / 1000).toBeCloseTo(600, -1);
    expect((paced - settings) / 1000).toBeCloseTo(60, -1);
    expect((now - paced) / 1000).toBeCloseTo(30, -1);
  });

  it('settings without everySeconds (a run of the earlier Schedule) are one pass and its result', async () => {
    const { activities } = stubPass();
    const result = await withStubWorker(env(), activities, (taskQueue) =>
      env().client.workflow.execute(reconcileBatches, {
        taskQueue,
        workflowId: 'reconciler-one-pass',
        args: [{ olderThanSeconds: 120 }],
      }),
    );
    expect(result).toEqual({ ...NOTHING, started: ['batch-1'] });
  });
});
