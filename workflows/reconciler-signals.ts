/** The reconciler's signals, apart from its workflow code so the worker's start-up and tests send them. */
import { defineSignal } from '@temporalio/workflow';
import type { ReconcilerSettings } from '../pipeline/contracts';

/** The settings of a worker (re)started (batches/reconciler.ts): a pass follows at once, then at the new pace. */
export const reconcilerSettingsSignal = defineSignal<[ReconcilerSettings]>('settings');
/** Runs a pass now instead of at the end of the wait (`temporal workflow signal --name reconcileNow`). */
export const reconcileNowSignal = defineSignal('reconcileNow');
