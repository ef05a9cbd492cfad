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
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { BatchError, ProcessEventBatchInput, ProcessEventBatchResult } from './contracts';

/** Named option profiles: the history in the Temporal UI reads like the pipeline. */
const retry = (maximumInterval: Duration): RetryPolicy => ({ initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval, maximumAttempts: 12 });
// Steps heartbeat every second (activities/heartbeat.ts): a dead worker is noticed within 5 s.
const PROFILES = {
  persist: { startToCloseTimeout: '2 minutes', heartbeatTimeout: '5 seconds', retry: retry('10 seconds') },
  attach: { startToCloseTimeout: '30 seconds', heartbeatTimeout: '5 seconds', retry: retry('5 seconds') },
  recalculate: { startToCloseTimeout: '2 minutes', heartbeatTimeout: '5 seconds', retry: retry('10 seconds') },
  ledger: { startToCloseTimeout: '1 minute', heartbeatTimeout: '5 seconds', retry: retry('10 seconds') },
} satisfies Record<string, ActivityOptions>;
// Bookkeeping, not a pipeline step: a local activity, one short statement without a server round trip.
const STATUS: LocalActivityOptions = { startToCloseTimeout: '15 seconds', retry: retry('5 seconds') };

const { persistEvents } = proxyActivities<Activities>(PROFILES.persist);
const { attachDocuments } = proxyActivities<Activities>(PROFILES.attach);
const { recalculateTimeline } = proxyActivities<Activities>(PROFILES.recalculate);
const { commitLedger } = proxyActivities<Activities>(PROFILES.ledger);
const { recordBatchStatus } = proxyLocalActivities<Activities>(STATUS);

/**
 * The durable event pipeline: one workflow per batch. Every step is an idempotent activity keyed by
 * the batch id, so a worker dying anywhere resumes here without storing anything twice.
 */
export async function processEventBatch(input: ProcessEventBatchInput): Promise<ProcessEventBatchResult> {
  const { batchId, accountId, accountName } = input;
  const ref = { batchId, accountId, accountName };
  log.info('batch received', { batchId, account: accountName, events: input.events.length });
  try {
    const persisted = await persistEvents(ref);
    // Once the events are stored the three steps touch disjoint tables: they run side by side.
    const [attached] = await Promise.all([
      attachDocuments({ ...ref, documentIds: input.events.map((event) => event.DocumentIds ?? null) }),
      recalculateTimeline(ref),
      commitLedger(ref),
    ]);
    await recordBatchStatus({ batchId, status: 'Completed', documentsNotAttached: attached.documentsNotAttached });
    log.info('batch completed', { batchId, account: accountName, events: persisted.events });
    return { batchId, events: persisted.events };
  } catch (error) {
    const cause = error instanceof ActivityFailure ? error.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.nonRetryable && Array.isArray(cause.details?.[0])) {
      // A business rejection: nothing was stored; the batch fails with the activity's error list.
      const errors = cause.details[0] as BatchError[];
      log.warn('batch rejected', { batchId, account: accountName, code: cause.type, errors: errors.length });
      await recordBatchStatus({ batchId, status: 'Failed', errors });
      throw ApplicationFailure.create({ message: cause.message, type: cause.type ?? 'BatchRejected', nonRetryable: true, details: [errors] });
    }
    const message = error instanceof Error ? error.message : String(error);
    log.error('batch failed', { batchId, account: accountName, message });
    await recordBatchStatus({ batchId, status: 'Failed', errors: [{ index: null, eventId: null, code: 'InternalError', field: null, message }] });
    throw error;
  }
}
