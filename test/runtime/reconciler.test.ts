import fs from 'node:fs';
import { Client, Connection, ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import { TASK_QUEUE } from '../../platform/config';
import { waitFor } from '../../platform/net';
import { readLiveState } from '../../supervisor/state';
import { startStack, type Stack } from '../helpers/stack';

/**
 * The reconciler as an operator sees it in the Temporal UI (issue 28): one long-running workflow, not a
 * new workflow in the list for every pass between the batches. A stack of its own, with a pass every
 * 2 s, so a few dozen seconds are many passes.
 */
describe('the reconciler in the Temporal UI', () => {
  let stack: Stack;
  let connection: Connection;
  let temporal: Client;

  beforeAll(async () => {
    stack = await startStack({ RECONCILE_AFTER_SECONDS: '1', RECONCILE_EVERY_SECONDS: '2' });
    connection = await Connection.connect({ address: stack.state.temporalAddress });
    temporal = new Client({ connection });
  }, 180_000);

  afterAll(async () => {
    await connection?.close();
    await stack?.stop();
    if (stack && !process.env.KEEP_TEST_STACK) fs.rmSync(stack.dir, { recursive: true, force: true });
  });

  /** Every workflow execution the UI's list shows that is not a batch. */
  async function housekeepingRows(): Promise<{ workflowId: string; status: string }[]> {
    const rows = [];
    for await (const execution of temporal.workflow.list({ query: 'WorkflowType != "processEventBatch"' }))
      rows.push({ workflowId: execution.workflowId, status: execution.status.name });
    return rows;
  }

  /** How many passes the reconciler's current run has made (one activity each). */
  async function passes(): Promise<number> {
    const { events } = await temporal.workflow.getHandle('reconcile-batches').fetchHistory();
    return events!.filter((event) => event.activityTaskCompletedEventAttributes).length;
  }

  it('runs pass after pass as one workflow: one row in the list, not one per pass', async () => {
    // Five passes in one run's history (a pass every 2 s): a Schedule would have added a row for each by now.
    await waitFor('five passes of the reconciler', 90_000, async () => (await passes().catch(() => 0)) >= 5);
    expect(await housekeepingRows()).toEqual([{ workflowId: 'reconcile-batches', status: 'RUNNING' }]);
    const described = await temporal.workflow.getHandle('reconcile-batches').describe();
    expect(await described.staticSummary()).toMatch(/^Housekeeping \(not a batch\)/);
  }, 120_000);

  it('removes, at start-up, the reconcile-batches Schedule of an earlier version', async () => {
    // What the earlier worker created: a Schedule starting one reconcileBatches workflow per pass.
    await temporal.schedule.create({
      scheduleId: 'reconcile-batches',
      spec: { intervals: [{ every: '2s' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'reconcileBatches',
        workflowId: 'reconcile-batches',
        taskQueue: TASK_QUEUE,
        args: [{ olderThanSeconds: 1 }],
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
    const killed = stack.state.workerPid!;
    process.kill(killed, 'SIGKILL');
    await waitFor('the supervisor to start a new worker', 90_000, async () => {
      const pid = readLiveState(stack.dir)?.workerPid;
      return pid !== null && pid !== undefined && pid !== killed;
    });
    await waitFor('the new worker to delete the Schedule', 60_000, async () => {
      try {
        await temporal.schedule.getHandle('reconcile-batches').describe();
        return false;
      } catch (error) {
        if (error instanceof ScheduleNotFoundError) return true;
        throw error;
      }
    });
    // The Schedule's last runs (one pass each, on the new worker's code too) finish; the loop goes on.
    const running = async () => (await housekeepingRows()).filter((row) => row.status === 'RUNNING');
    await waitFor("the Schedule's last runs to finish", 30_000, async () => (await running()).length === 1);
    expect(await running()).toEqual([{ workflowId: 'reconcile-batches', status: 'RUNNING' }]);
  }, 180_000);
});
