import { ScheduleNotFoundError, type Client } from '@temporalio/client';
import type { reconcileBatches } from '../workflows';
import { reconcilerSettingsSignal } from '../workflows/reconciler-signals';
import type { ReconcilerSettings } from '../pipeline/contracts';

/** The reconciler's workflow id: one long-running workflow (workflows/reconcile-batches.ts). */
export const RECONCILER_WORKFLOW_ID = 'reconcile-batches';
/** The Temporal Schedule that ran the reconciler before, one workflow per pass; removed at start-up. */
export const LEGACY_RECONCILE_SCHEDULE_ID = 'reconcile-batches';

/** The line the Temporal UI's list shows for it: what it is, so nobody takes it for a batch. */
export const RECONCILER_SUMMARY =
  'Housekeeping (not a batch): starts batches and imports left Accepted, runs again batches left Running, follows open recalls again';

const RECONCILER_DETAILS = [
  'One long-running workflow: every `RECONCILE_EVERY_SECONDS` it starts the workflow of each batch left `Accepted` for `RECONCILE_AFTER_SECONDS`, runs again that of each batch left `Running` by a closed run, starts the workflow (`import-<id>`) of each import left `Accepted` (stored, its chunks never taken up by its workflow) as long, and starts again the follow-up (`recall-<id>`) of each open recall whose follow-up is not running.',
  'It continues as new every few hours (a fresh history). "Current details" says what the last pass did.',
  'Every worker start brings it its settings (or starts it, if it is not running). Run a pass now, in the checkout: `npm run --silent temporal -- workflow signal --workflow-id reconcile-batches --name reconcileNow`.',
  'The batches alone: `WorkflowType = "processEventBatch"` in the search box.',
].join('\n\n');

/**
 * Keeps the reconciler running with these settings: starts `reconcile-batches` when it is not running,
 * or hands the running one the settings (signal-with-start: either in one call). The settings follow the
 * workers last started. The Temporal Schedule of earlier versions is deleted first: it started a new
 * workflow every pass, a row in the UI's list between the batches every minute, and beside the loop it
 * would run every pass twice.
 *
 * Why a loop and not the Schedule: Temporal's own long-running-workflow pattern (a durable timer, and
 * continue-as-new to bound the history) shows the reconciler as one row, where any Schedule adds one
 * closed workflow per pass to the list operators read.
 */
export async function ensureReconciler(client: Client, taskQueue: string, settings: ReconcilerSettings): Promise<void> {
  try {
    await client.schedule.getHandle(LEGACY_RECONCILE_SCHEDULE_ID).delete();
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
  await client.workflow.signalWithStart<typeof reconcileBatches, [ReconcilerSettings]>('reconcileBatches', {
    workflowId: RECONCILER_WORKFLOW_ID,
    taskQueue,
    args: [settings],
    signal: reconcilerSettingsSignal,
    signalArgs: [settings],
    staticSummary: RECONCILER_SUMMARY,
    staticDetails: RECONCILER_DETAILS,
  });
}
