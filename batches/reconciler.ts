import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import type { reconcileBatches } from '../workflows';

export const RECONCILE_SCHEDULE_ID = 'reconcile-batches';

export interface ReconcilerSettings {
  taskQueue: string;
  /** How often the schedule runs reconcileBatches. */
  everySeconds: number;
  /** How long a batch may stay `Accepted` before the reconciler starts it. */
  afterSeconds: number;
}

/**
 * The Temporal Schedule that runs reconcileBatches (visible in the UI under Schedules, each run a
 * workflow). Created by every worker at start-up and brought up to date when it exists, so its
 * settings follow the configuration of the workers last started.
 */
export async function ensureReconcileSchedule(client: Client, settings: ReconcilerSettings): Promise<void> {
  const action: ScheduleOptionsStartWorkflowAction<typeof reconcileBatches> = {
    type: 'startWorkflow',
    workflowType: 'reconcileBatches',
    workflowId: RECONCILE_SCHEDULE_ID,
    taskQueue: settings.taskQueue,
    args: [{ olderThanSeconds: settings.afterSeconds }],
  };
  const spec = { intervals: [{ every: settings.everySeconds * 1000 }] };
  // A run still going when the next is due is enough: skip, never pile runs up.
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 60_000 };
  try {
    await client.schedule.create({ scheduleId: RECONCILE_SCHEDULE_ID, spec, action, policies });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule.getHandle(RECONCILE_SCHEDULE_ID).update<typeof reconcileBatches>((previous) => ({ ...previous, spec, action, policies }));
  }
}
