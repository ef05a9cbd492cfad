import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import type { BatchStatusUpdate, PersistEventsOutput, ProcessEventBatchInput } from '../../pipeline/contracts';
import { processEventBatch } from '../../workflows/process-event-batch';
import { timeSkippingEnvironment, withStubWorker } from '../helpers/workflow-env';

const persisted: PersistEventsOutput = { events: 2, documents: false, commissions: false, recalculate: true };

/** processEventBatch with stub steps on the time-skipping test server: its retry policies, step by step. */
describe('processEventBatch', () => {
  const env = timeSkippingEnvironment();

  const input = (batchId: string, eventCount: number): ProcessEventBatchInput => ({
    batchId,
    accountId: 'account-1',
    accountName: 'stubbed',
    requestId: null,
    eventCount,
    localMaxEvents: 50,
  });

  /** Runs the batch with `steps` over stubs that succeed; the status updates and attempts are written down. */
  async function run(batchId: string, eventCount: number, steps: Record<string, (...args: never[]) => unknown>) {
    const statuses: BatchStatusUpdate[] = [];
    const attempts: { type: string; local: boolean; at: number }[] = [];
    const noted =
      <T>(step: () => Promise<T>) =>
      async () => {
        const { activityType: type, isLocal: local, currentAttemptScheduledTimestampMs: at } = Context.current().info;
        attempts.push({ type, local, at });
        return step();
      };
    const activities = {
      persistEvents: noted(async () => persisted),
      attachDocuments: noted(async () => ({ documentsNotAttached: {} })),
      recalculateTimeline: noted(async () => undefined),
      commitLedger: noted(async () => undefined),
      recordBatchStatus: async (update: BatchStatusUpdate) => void statuses.push(update),
      ...Object.fromEntries(Object.entries(steps).map(([name, step]) => [name, noted(step as () => Promise<unknown>)])),
    };
    const outcome = await withStubWorker(env(), activities, (taskQueue) =>
      env()
        .client.workflow.execute(processEventBatch, {
          taskQueue,
          workflowId: `batch-${batchId}`,
          args: [input(batchId, eventCount)],
        })
        .catch((error: unknown) => error),
    );
    return { outcome, statuses, attempts };
  }

  it('a persist that keeps failing gives up after 12 attempts, backing off to 10 s, and the batch is recorded Failed with an InternalError', async () => {
    const { outcome, statuses, attempts } = await run('persist-down', 300, {
      persistEvents: async () => {
        throw new Error('connection refused');
      },
    });
    const persists = attempts.filter(({ type }) => type === 'persistEvents');
    expect(persists).toHaveLength(12);
    // Backing off from 0.2 s, doubling, to at most 10 s: about a minute in all.
    const gaps = persists.slice(1).map(({ at }, i) => at - persists[i].at);
    expect(Math.round(Math.max(...gaps) / 1000)).toBe(10);
    const span = persists.at(-1)!.at - persists[0].at;
    expect(span).toBeGreaterThan(45_000);
    expect(span).toBeLessThan(65_000);
    expect(attempts.map(({ type }) => type)).not.toContain('recalculateTimeline');
    expect(outcome).toBeInstanceOf(WorkflowFailedError);
    expect((outcome as WorkflowFailedError).cause).toMatchObject({ type: 'InternalError' });
    expect(statuses).toEqual([
      { batchId: 'persist-down', status: 'Failed', errors: [expect.objectContaining({ code: 'InternalError' })] },
    ]);
  });

  it('a small batch runs its steps locally; one that fails 3 times goes on as an activity task and the batch completes', async () => {
    let local = 0;
    const { outcome, attempts } = await run('local-fallback', 2, {
      persistEvents: async () => ({ ...persisted, documents: true }),
      attachDocuments: async () => {
        if (Context.current().info.isLocal && ++local <= 3) throw new Error('statement timeout');
        return { documentsNotAttached: {} };
      },
    });
    expect(outcome).toEqual({ batchId: 'local-fallback', events: 2 });
    // attachDocuments and recalculateTimeline run side by side once persist has stored the events.
    const how = (type: string) =>
      attempts.filter((attempt) => attempt.type === type).map(({ local: isLocal }) => (isLocal ? 'local' : 'task'));
    expect(how('persistEvents')).toEqual(['local']);
    expect(how('recalculateTimeline')).toEqual(['local']);
    expect(how('attachDocuments')).toEqual(['local', 'local', 'local', 'task']);
  });
});
