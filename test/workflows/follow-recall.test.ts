import { randomUUID } from 'node:crypto';
import { NativeConnection, Worker } from '@temporalio/worker';
import {
  RECALL_CHANGED_SIGNAL,
  recallWorkflowId,
  type FollowRecallResult,
  type RecallFollowUpOutcome,
} from '../../domain/recall-contracts';
import type { followRecall } from '../../workflows';
import { workflowsPath } from '../../worker/bundle';
import { temporalClient } from '../helpers/temporal';

/**
 * followRecall with a stub of its one activity, on a task queue of its own on the test stack's dev server:
 * the stub plays a recall whose one consignee never answers (reminded at the first pass, overdue at the
 * second), then has nothing due until the issuer closes it.
 */
describe('followRecall: reminders on a durable timer until the recall closes', () => {
  const client = temporalClient();

  it('waits the time the pass says until the next reminder, idles when none is due, and ends at the close', async () => {
    const taskQueue = `follow-recall-test-${randomUUID()}`;
    const recallId = randomUUID();
    const passes: number[] = [];
    let closed = false;
    const script: Omit<RecallFollowUpOutcome, 'closed'>[] = [
      { reminded: ['never-answers'], overdue: [], nextDueSeconds: 1 },
      { reminded: [], overdue: ['never-answers'], nextDueSeconds: null },
    ];
    const followUpRecall = async (id: string): Promise<RecallFollowUpOutcome> => {
      expect(id).toBe(recallId);
      passes.push(Date.now());
      if (closed) return { closed: true, reminded: [], overdue: [], nextDueSeconds: null };
      return { closed: false, ...(script[passes.length - 1] ?? { reminded: [], overdue: [], nextDueSeconds: null }) };
    };
    const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS });
    try {
      const worker = await Worker.create({
        connection,
        taskQueue,
        workflowsPath: workflowsPath(),
        activities: { followUpRecall },
      });
      await worker.runUntil(async () => {
        const handle = await client.workflow.start<typeof followRecall>('followRecall', {
          taskQueue,
          workflowId: recallWorkflowId(recallId),
          args: [{ recallId }],
        });
        // The first pass at once, the second when its timer (1 s) fires.
        while (passes.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
        expect(passes[1] - passes[0]).toBeGreaterThanOrEqual(900);
        // Nothing due: no pass until something changes.
        await new Promise((resolve) => setTimeout(resolve, 2500));
        expect(passes).toHaveLength(2);
        // A consignee passed the recall on: one pass, then idle again.
        await handle.signal(RECALL_CHANGED_SIGNAL);
        while (passes.length < 3) await new Promise((resolve) => setTimeout(resolve, 100));
        closed = true;
        await handle.signal(RECALL_CHANGED_SIGNAL);
        expect(await handle.result()).toEqual<FollowRecallResult>({ reminders: 1, overdue: ['never-answers'] });
        expect(passes).toHaveLength(4);

        const events = (await handle.fetchHistory()).events ?? [];
        const timers = events.flatMap((e) =>
          e.timerStartedEventAttributes ? [Number(e.timerStartedEventAttributes.startToFireTimeout?.seconds)] : [],
        );
        // The reminder's timer, then the idle waits (an hour: a lost signal is picked up that late at most).
        expect(timers).toEqual([1, 3600, 3600]);
      });
    } finally {
      await connection.close();
    }
  });

  it('waits for a recall not stored yet, and ends when it is still missing after that: its commit failed', async () => {
    const taskQueue = `follow-recall-test-${randomUUID()}`;
    const recallId = randomUUID();
    let passes = 0;
    const followUpRecall = async (): Promise<RecallFollowUpOutcome> => {
      passes += 1;
      return { missing: true, closed: false, reminded: [], overdue: [], nextDueSeconds: null };
    };
    const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS });
    try {
      const worker = await Worker.create({
        connection,
        taskQueue,
        workflowsPath: workflowsPath(),
        activities: { followUpRecall },
      });
      await worker.runUntil(async () => {
        const handle = await client.workflow.start<typeof followRecall>('followRecall', {
          taskQueue,
          workflowId: recallWorkflowId(recallId),
          args: [{ recallId }],
        });
        while (passes < 1) await new Promise((resolve) => setTimeout(resolve, 100));
        // The API's signal after its commit: the recall is read again, still missing, and the follow-up ends.
        await handle.signal(RECALL_CHANGED_SIGNAL);
        expect(await handle.result()).toEqual<FollowRecallResult>({ reminders: 0, overdue: [] });
        expect(passes).toBe(2);
      });
    } finally {
      await connection.close();
    }
  });
});
