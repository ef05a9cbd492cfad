import type { Duration } from '@temporalio/common';
import {
  ActivityFailure,
  ApplicationFailure,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  type ActivityOptions,
  type LocalActivityOptions,
  type RetryPolicy,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { internalError } from '../domain/batch-errors';
import type { AttachDocumentsOutput, ProcessEventBatchInput, ProcessEventBatchResult } from './contracts';
import { batchFailed, batchFailureOf, type BatchFailure } from './batch-failure';
import { BATCH_STATUS } from '../domain/search-attribute-keys';

/**
 * Retry policies say what a step is. Persist is the one step that can still refuse the whole batch
 * (its transaction stores all or nothing): it gives up after a bounded number of attempts, and the
 * batch is Failed with nothing stored. Every step after it works on stored events and is idempotent:
 * it retries until it succeeds, and a stuck one shows as a pending activity with its last failure.
 */
const bounded = (maximumInterval: Duration): RetryPolicy => ({
  initialInterval: '200 milliseconds',
  backoffCoefficient: 2,
  maximumInterval,
  maximumAttempts: 12,
});
const untilDone = (maximumInterval: Duration): RetryPolicy => ({
  initialInterval: '200 milliseconds',
  backoffCoefficient: 2,
  maximumInterval,
});

/** Named option profiles: the history in the Temporal UI reads like the pipeline. */
// Steps heartbeat every second (activities/heartbeat.ts): a dead worker is noticed within 5 s.
const PROFILES = {
  persist: { startToCloseTimeout: '2 minutes', heartbeatTimeout: '5 seconds', retry: bounded('10 seconds') },
  attach: { startToCloseTimeout: '30 seconds', heartbeatTimeout: '5 seconds', retry: untilDone('30 seconds') },
  recalculate: { startToCloseTimeout: '2 minutes', heartbeatTimeout: '5 seconds', retry: untilDone('30 seconds') },
  ledger: { startToCloseTimeout: '1 minute', heartbeatTimeout: '5 seconds', retry: untilDone('30 seconds') },
} satisfies Record<string, ActivityOptions>;
// Bookkeeping, not a pipeline step: a local activity, one short statement without a server round trip.
const STATUS: LocalActivityOptions = { startToCloseTimeout: '15 seconds', retry: untilDone('30 seconds') };

const { persistEvents } = proxyActivities<Activities>(PROFILES.persist);
const { attachDocuments } = proxyActivities<Activities>(PROFILES.attach);
const { recalculateTimeline } = proxyActivities<Activities>(PROFILES.recalculate);
const { commitLedger } = proxyActivities<Activities>(PROFILES.ledger);
const { recordBatchStatus } = proxyLocalActivities<Activities>(STATUS);

const NOTHING_TO_ATTACH: AttachDocumentsOutput = { documentsNotAttached: {} };

/**
 * Runs started before BatchStatus existed (their histories have no such commands) replay without it;
 * runs started since keep it equal to the batch row's status, so the UI's list filters batches by it.
 */
const BATCH_STATUS_PATCH = 'batch-status-search-attribute';

/** Appended to a Failed batch's failure message (its details: the error count and the first error). */
export const RETRY_NOT_RESET = (batchId: string): string =>
  `[Batch Failed: retry it once the cause is fixed (POST /Integration/Batches/${batchId}/retry, the support page /support, or \`npm run --silent batch -- retry ${batchId}\`); Reset cannot run a batch again. See User Metadata.]`;

/**
 * The durable event pipeline: one workflow per batch, started with a reference to the stored batch.
 * Every step is an idempotent activity keyed by the batch id, so a worker dying anywhere resumes here
 * without storing anything twice. A batch is Failed only when persist stored nothing.
 */
export async function processEventBatch(input: ProcessEventBatchInput): Promise<ProcessEventBatchResult> {
  const { batchId, accountId, accountName, requestId } = input;
  const ref = { batchId, accountId, accountName };
  const keepsBatchStatus = patched(BATCH_STATUS_PATCH);
  const batchStatusIs = (status: 'Running' | 'Completed' | 'Failed') => {
    if (keepsBatchStatus) upsertSearchAttributes([{ key: BATCH_STATUS, value: status }]);
  };
  log.info('batch received', { batchId, account: accountName, requestId });

  let persisted;
  try {
    persisted = await persistEvents(ref);
  } catch (error) {
    const cause =
      error instanceof ActivityFailure && error.cause instanceof ApplicationFailure ? error.cause : undefined;
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
  // nothing to do (no DocumentIds, no commission) is not scheduled at all.
  const [attached] = await Promise.all([
    persisted.documents ? attachDocuments(ref) : NOTHING_TO_ATTACH,
    recalculateTimeline(ref),
    persisted.commissions ? commitLedger(ref) : undefined,
  ]);
  await recordBatchStatus({ batchId, status: 'Completed', documentsNotAttached: attached.documentsNotAttached });
  batchStatusIs('Completed');
  log.info('batch completed', { batchId, account: accountName, events: persisted.events });
  return { batchId, events: persisted.events };
}
