import type { Duration } from '@temporalio/common';
import {
  ActivityFailure,
  ApplicationFailure,
  log,
  proxyActivities,
  proxyLocalActivities,
  type ActivityOptions,
  type LocalActivityOptions,
  type RetryPolicy,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { internalError } from '../domain/batch-errors';
import type {
  AttachDocumentsOutput,
  BatchRef,
  ProcessEventBatchInput,
  ProcessEventBatchResult,
} from '../pipeline/contracts';
import { batchFailed, batchFailureOf, type BatchFailure } from '../pipeline/batch-failure';
import { BATCH_STATUS } from '../domain/search-attribute-keys';

/**
 * Retry policies say what a step is. Persist is the one step that can still refuse the whole batch
 * (its transaction stores all or nothing): it gives up after a bounded number of attempts, and the
 * batch is Failed with nothing stored. Every step after it works on stored events and is idempotent:
 * it retries until it succeeds, and a stuck one shows as a pending activity with its last failure.
 */
const untilDone = (maximumInterval: Duration): RetryPolicy => ({
  initialInterval: '200 milliseconds',
  backoffCoefficient: 2,
  maximumInterval,
});
const bounded = (maximumInterval: Duration): RetryPolicy => ({ ...untilDone(maximumInterval), maximumAttempts: 12 });

/**
 * Named option profiles: the history in the Temporal UI reads like the pipeline. Each step runs either
 * as an activity task or, for a batch within its localMaxEvents, as a local activity first (see
 * stepsOf): same name, same retry policy, same timeout per attempt.
 */
const PROFILES = {
  persist: { startToCloseTimeout: '2 minutes', retry: bounded('10 seconds') },
  attach: { startToCloseTimeout: '30 seconds', retry: untilDone('30 seconds') },
  recalculate: { startToCloseTimeout: '2 minutes', retry: untilDone('30 seconds') },
  ledger: { startToCloseTimeout: '1 minute', retry: untilDone('30 seconds') },
} satisfies Record<string, LocalActivityOptions>;
type Profile = (typeof PROFILES)[keyof typeof PROFILES];
// As activity tasks, steps heartbeat every second (activities/heartbeat.ts): a dead worker is noticed
// within 5 s. A local step cannot heartbeat: a dead worker's workflow task times out and another
// worker runs the step again.
const remote = (profile: Profile): ActivityOptions => ({ ...profile, heartbeatTimeout: '5 seconds' });

/**
 * A local step that still fails after this many attempts (a second or so) goes on as an activity task,
 * with the attempts its policy has left: a stuck step then shows under Pending Activities with its
 * attempt count and last failure, as it would as a task from the start, and retries on the server
 * instead of holding a workflow task open in one worker (whose heartbeats would grow the history).
 */
const LOCAL_ATTEMPTS = 3;
const local = (profile: Profile): LocalActivityOptions => ({
  ...profile,
  retry: { ...profile.retry, maximumAttempts: LOCAL_ATTEMPTS },
});
const afterLocal = (profile: Profile): ActivityOptions => {
  const { maximumAttempts } = profile.retry;
  return remote({
    ...profile,
    retry: { ...profile.retry, maximumAttempts: maximumAttempts && maximumAttempts - LOCAL_ATTEMPTS },
  });
};
// Bookkeeping, not a pipeline step: a local activity, one short statement without a server round trip.
const STATUS: LocalActivityOptions = { startToCloseTimeout: '15 seconds', retry: untilDone('30 seconds') };

type StepName = 'persistEvents' | 'attachDocuments' | 'recalculateTimeline' | 'commitLedger';
type Steps = { [K in StepName]: (ref: BatchRef) => ReturnType<Activities[K]> };
const ACTIVITY_STEPS: Steps = {
  persistEvents: proxyActivities<Activities>(remote(PROFILES.persist)).persistEvents,
  attachDocuments: proxyActivities<Activities>(remote(PROFILES.attach)).attachDocuments,
  recalculateTimeline: proxyActivities<Activities>(remote(PROFILES.recalculate)).recalculateTimeline,
  commitLedger: proxyActivities<Activities>(remote(PROFILES.ledger)).commitLedger,
};
const LOCAL_STEPS: Steps = {
  persistEvents: proxyLocalActivities<Activities>(local(PROFILES.persist)).persistEvents,
  attachDocuments: proxyLocalActivities<Activities>(local(PROFILES.attach)).attachDocuments,
  recalculateTimeline: proxyLocalActivities<Activities>(local(PROFILES.recalculate)).recalculateTimeline,
  commitLedger: proxyLocalActivities<Activities>(local(PROFILES.ledger)).commitLedger,
};
const AFTER_LOCAL_STEPS: Steps = {
  persistEvents: proxyActivities<Activities>(afterLocal(PROFILES.persist)).persistEvents,
  attachDocuments: proxyActivities<Activities>(afterLocal(PROFILES.attach)).attachDocuments,
  recalculateTimeline: proxyActivities<Activities>(afterLocal(PROFILES.recalculate)).recalculateTimeline,
  commitLedger: proxyActivities<Activities>(afterLocal(PROFILES.ledger)).commitLedger,
};
const { recordBatchStatus } = proxyLocalActivities<Activities>(STATUS);

/**
 * Each step as a local activity, and when that runs out of its local attempts, the same step as an
 * activity task. A refusal (a non-retryable failure: persist's business rejection) is the step's
 * answer and goes back to the workflow as it is.
 */
const LOCAL_FIRST: Steps = {
  persistEvents: (ref) => LOCAL_STEPS.persistEvents(ref).catch(orAsTask(() => AFTER_LOCAL_STEPS.persistEvents(ref))),
  attachDocuments: (ref) =>
    LOCAL_STEPS.attachDocuments(ref).catch(orAsTask(() => AFTER_LOCAL_STEPS.attachDocuments(ref))),
  recalculateTimeline: (ref) =>
    LOCAL_STEPS.recalculateTimeline(ref).catch(orAsTask(() => AFTER_LOCAL_STEPS.recalculateTimeline(ref))),
  commitLedger: (ref) => LOCAL_STEPS.commitLedger(ref).catch(orAsTask(() => AFTER_LOCAL_STEPS.commitLedger(ref))),
};
function orAsTask<T>(asTask: () => Promise<T>): (error: unknown) => Promise<T> {
  return (error) => {
    if (error instanceof ApplicationFailure && error.nonRetryable) throw error;
    return asTask();
  };
}

/**
 * How this batch's steps run, from its input alone: a batch of at most `localMaxEvents` events (set by
 * whoever started it, from PIPELINE_LOCAL_MAX_EVENTS) as local activities, all in the one workflow task
 * that starts the run, with no task queue round trip per step (a step failing beyond its local attempts
 * goes on as an activity task); any other as activity tasks, which heartbeat and spread over workers.
 */
function stepsOf(input: ProcessEventBatchInput): Steps {
  const { eventCount, localMaxEvents } = input;
  const small = eventCount !== undefined && localMaxEvents !== undefined && eventCount <= localMaxEvents;
  return small ? LOCAL_FIRST : ACTIVITY_STEPS;
}

const NOTHING_TO_ATTACH: AttachDocumentsOutput = { documentsNotAttached: {} };

/** Appended to a Failed batch's failure message (its details: the error count and the first error). */
export const RETRY_NOT_RESET = (batchId: string): string =>
  `[Batch Failed: retry it once the cause is fixed (POST /Integration/Batches/${batchId}/retry, the support page /support, or \`npm run --silent batch -- retry ${batchId}\`); Reset cannot run a batch again. See User Metadata.]`;

/**
 * The durable event pipeline: one workflow per batch, started with a reference to the stored batch.
 * Every step is an idempotent activity (local within localMaxEvents) keyed by the batch id, so a worker
 * dying anywhere resumes here without storing anything twice. A batch is Failed only when persist stored nothing.
 */
export async function processEventBatch(input: ProcessEventBatchInput): Promise<ProcessEventBatchResult> {
  const { batchId, accountId, accountName, requestId } = input;
  const ref = { batchId, accountId, accountName };
  // BatchStatus follows the batch row's status, so the UI's list filters batches by it.
  const batchStatusIs = (status: 'Running' | 'Completed' | 'Failed') =>
    upsertSearchAttributes([{ key: BATCH_STATUS, value: status }]);
  const { persistEvents, attachDocuments, recalculateTimeline, commitLedger } = stepsOf(input);
  log.info('batch received', { batchId, account: accountName, requestId });

  let persisted;
  try {
    persisted = await persistEvents(ref);
  } catch (error) {
    // An activity task's failure wraps the step's ApplicationFailure; a local activity's is that failure.
    const failed = error instanceof ActivityFailure ? error.cause : error;
    const cause = failed instanceof ApplicationFailure ? failed : undefined;
    // A business rejection carries the activity's count and first error; anything else ran out of attempts.
    const rejection = cause?.nonRetryable ? batchFailureOf(cause) : undefined;
    const failure: BatchFailure = rejection ?? {
      errorCount: 1,
      firstError: internalError(error instanceof Error ? error.message : String(error)),
    };
    if (rejection)
      log.warn('batch rejected', { batchId, account: accountName, code: cause?.type, message: cause?.message });
    else log.error('batch failed', { batchId, account: accountName, message: failure.firstError.message });
    // A rejected batch's row is Failed already, with every error (persist wrote it): this changes nothing then.
    await recordBatchStatus({ batchId, status: 'Failed', errors: [failure.firstError] });
    batchStatusIs('Failed');
    // The failure's message is what the Temporal UI shows beside its Reset button: it says the way out.
    const message = `${failure.firstError.message} ${RETRY_NOT_RESET(batchId)}`;
    throw batchFailed(failure, rejection ? (cause?.type ?? 'BatchRejected') : 'InternalError', message);
  }

  batchStatusIs('Running');
  // The events are stored: the remaining steps touch disjoint tables and run side by side; a step with
  // nothing to do (no DocumentIds, balances stored final, no commission) is not scheduled at all.
  const [attached] = await Promise.all([
    persisted.documents ? attachDocuments(ref) : NOTHING_TO_ATTACH,
    persisted.recalculate === false ? undefined : recalculateTimeline(ref),
    persisted.commissions ? commitLedger(ref) : undefined,
  ]);
  await recordBatchStatus({ batchId, status: 'Completed', documentsNotAttached: attached.documentsNotAttached });
  batchStatusIs('Completed');
  log.info('batch completed', { batchId, account: accountName, events: persisted.events });
  return { batchId, events: persisted.events };
}
