import type { Client } from '@temporalio/client';
import { RECONCILER_WORKFLOW_ID } from '../../batches/reconciler';
import { waitFor } from '../../platform/net';
import { reconcileNowSignal } from '../../workflows/reconciler-signals';

/** Runs reconciler passes now (instead of within the minute), a second apart, until `done` holds. */
export async function reconcileUntil(
  temporal: Client,
  what: string,
  timeoutMs: number,
  done: () => Promise<boolean>,
): Promise<void> {
  const reconciler = temporal.workflow.getHandle(RECONCILER_WORKFLOW_ID);
  await waitFor(what, timeoutMs, async () => {
    if (await done()) return true;
    await reconciler.signal(reconcileNowSignal);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return done();
  });
}
