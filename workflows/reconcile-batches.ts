import {
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type {
  ReconcileBatchesInput,
  ReconcileBatchesResult,
  ReconcilerActivities,
  ReconcilerSettings,
} from '../pipeline/contracts';
import { reconcileNowSignal, reconcilerSettingsSignal } from './reconciler-signals';

// A pass that fails is followed by the next one: a few quick attempts are enough. The heartbeat
// matters: a pass on a worker that died must time out within seconds, not hold the loop up for the
// whole startToCloseTimeout.
const { startStrandedBatches } = proxyActivities<ReconcilerActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 3 },
});

/**
 * Past this many passes a run continues as new (a fresh history) even when the server has not
 * suggested it yet: about 11 events a pass keeps a history under 4,000 events.
 */
const PASSES_PER_RUN = 350;

/**
 * The reconciler: one long-running workflow, `reconcile-batches` (batches/reconciler.ts), that every
 * `everySeconds` starts the workflow of every batch left `Accepted` (stored by the API, whose start of the
 * workflow failed or never happened), and runs again that of every batch left `Running` by a closed run
 * (terminated after its events were stored), and starts the workflow of every import stored but never
 * split (`import-<id>`). One row in the Temporal UI's list instead of one workflow
 * per pass between the batches; a new run (Continued As New) every few hours keeps its history short.
 *
 * Settings without `everySeconds` are those of the one-pass runs the Temporal Schedule of earlier
 * versions started: such a run still open when its worker is upgraded replays as what it was.
 */
export async function reconcileBatches(input: ReconcileBatchesInput): Promise<ReconcileBatchesResult> {
  if (input.everySeconds === undefined) return startStrandedBatches({ olderThanSeconds: input.olderThanSeconds });
  let settings: ReconcilerSettings = { olderThanSeconds: input.olderThanSeconds, everySeconds: input.everySeconds };
  let passRequested = false;
  setHandler(reconcilerSettingsSignal, (next) => {
    settings = next;
    passRequested = true;
  });
  setHandler(reconcileNowSignal, () => {
    passRequested = true;
  });

  for (let pass = 1; ; pass++) {
    passRequested = false;
    const at = new Date().toISOString();
    let outcome: string;
    try {
      const result = await startStrandedBatches({ olderThanSeconds: settings.olderThanSeconds });
      // The import fields are absent from the results of passes before imports were reconciled (replay).
      const importsStarted = result.importsStarted?.length ?? 0;
      const importsFailed = result.importsFailed?.length ?? 0;
      const recallsFollowed = result.recallsFollowed?.length ?? 0;
      if (
        result.started.length ||
        result.closed.length ||
        result.resumed.length ||
        importsStarted ||
        importsFailed ||
        recallsFollowed
      )
        log.warn('reconciler pass moved stranded batches, imports or recalls', { ...result });
      outcome = `started ${result.started.length}, resumed ${result.resumed.length}, recorded Failed ${result.closed.length}; imports started ${importsStarted}, recorded Failed ${importsFailed}; recall follow-ups started again ${recallsFollowed}`;
    } catch (error) {
      // The next pass tries again; the loop itself never fails over one bad pass.
      const message = error instanceof Error ? error.message : String(error);
      log.error('reconciler pass failed; the next one follows', { message });
      outcome = `failed: ${message}`;
    }
    // The UI's "Current details" of this workflow: what the last pass did, without opening its history.
    setCurrentDetails(
      `Pass ${pass} of this run at ${at}: ${outcome}. Next pass in ${settings.everySeconds} s, for batches stranded over ${settings.olderThanSeconds} s (RECONCILE_EVERY_SECONDS, RECONCILE_AFTER_SECONDS).`,
    );
    if (pass >= PASSES_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof reconcileBatches>(settings);
    }
    await condition(() => passRequested, settings.everySeconds * 1000);
  }
}
