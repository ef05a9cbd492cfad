import { Context } from '@temporalio/activity';
import type { FollowRecallResult, RecallFollowUpOutcome } from '../../domain/recall-contracts';
import { followRecall, recallChangedSignal } from '../../workflows/follow-recall';
import { timeSkippingEnvironment, withStubWorker } from '../helpers/workflow-env';

const DAY_S = 86_400;
const HOUR_MS = 3_600_000;

/** The time the server scheduled this pass at: the test server's clock, which time skipping moves on. */
const serverNow = (): number => Context.current().info.currentAttemptScheduledTimestampMs;

const outcome = (o: Partial<RecallFollowUpOutcome>): RecallFollowUpOutcome => ({
  closed: false,
  reminded: [],
  overdue: [],
  nextDueSeconds: null,
  ...o,
});

/**
 * followRecall with a stub of its one activity on the time-skipping test server: the stub plays a recall
 * whose one consignee never answers (a reminder a day, overdue at the third day), then has nothing due
 * until the issuer closes it.
 */
describe('followRecall', () => {
  const env = timeSkippingEnvironment();

  it('waits the time each pass says until the next reminder, idles when none is due, and ends at the close', async () => {
    const passes: number[] = [];
    let closed = false;
    const script = [
      outcome({ nextDueSeconds: DAY_S }),
      outcome({ reminded: ['never-answers'], nextDueSeconds: DAY_S }),
      outcome({ reminded: ['never-answers'], nextDueSeconds: DAY_S }),
      outcome({ overdue: ['never-answers'] }),
    ];
    const result = await withStubWorker(
      env(),
      {
        followUpRecall: async (): Promise<RecallFollowUpOutcome> => {
          passes.push(serverNow());
          if (closed) return outcome({ closed: true });
          return script[passes.length - 1] ?? outcome({});
        },
      },
      async (taskQueue) => {
        const handle = await env().client.workflow.start(followRecall, {
          taskQueue,
          workflowId: 'recall-reminders',
          args: [{ recallId: 'recall-1' }],
        });
        // Three days of reminders, then nothing due: the workflow idles on its hour-long timer.
        await env().sleep(3 * DAY_S * 1000 + 5 * HOUR_MS);
        closed = true;
        await handle.signal(recallChangedSignal);
        return handle.result();
      },
    );
    expect(result).toEqual<FollowRecallResult>({ reminders: 2, overdue: ['never-answers'] });
    const gaps = passes.slice(1).map((at, i) => Math.round((at - passes[i]) / 1000));
    // A day between the passes that reminded, then hourly passes while nothing is due, then the close.
    expect(gaps.slice(0, 3)).toEqual([DAY_S, DAY_S, DAY_S]);
    expect(gaps.slice(3, -1).every((gap) => gap === 3600)).toBe(true);
    expect(gaps.slice(3, -1).length).toBeGreaterThanOrEqual(4);
  });

  it('a change ends the wait at once: the next pass reads it', async () => {
    const passes: number[] = [];
    await withStubWorker(
      env(),
      {
        followUpRecall: async (): Promise<RecallFollowUpOutcome> => {
          passes.push(serverNow());
          return passes.length === 1 ? outcome({ nextDueSeconds: DAY_S }) : outcome({ closed: true });
        },
      },
      async (taskQueue) => {
        const handle = await env().client.workflow.start(followRecall, {
          taskQueue,
          workflowId: 'recall-signalled',
          args: [{ recallId: 'recall-2' }],
        });
        while (passes.length < 1) await new Promise((resolve) => setTimeout(resolve, 50));
        await handle.signal(recallChangedSignal);
        return handle.result();
      },
    );
    expect(passes).toHaveLength(2);
    expect(passes[1] - passes[0]).toBeLessThan(HOUR_MS);
  });

  it('waits a minute for a recall not stored yet, and ends when it is still missing: its commit failed', async () => {
    const passes: number[] = [];
    const result = await withStubWorker(
      env(),
      {
        followUpRecall: async (): Promise<RecallFollowUpOutcome> => {
          passes.push(serverNow());
          return outcome({ missing: true });
        },
      },
      (taskQueue) =>
        env().client.workflow.execute(followRecall, {
          taskQueue,
          workflowId: 'recall-missing',
          args: [{ recallId: 'recall-3' }],
        }),
    );
    expect(result).toEqual<FollowRecallResult>({ reminders: 0, overdue: [] });
    expect(passes).toHaveLength(2);
    expect(Math.round((passes[1] - passes[0]) / 1000)).toBe(60);
  });
});
