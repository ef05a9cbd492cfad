import { ActivityFailure, ApplicationFailure, log, proxyActivities, type ActivityOptions, type RetryPolicy } from '@temporalio/workflow';
import type { Duration } from '@temporalio/common';
import type { Activities } from '../activities';
import type { BatchError, EventResult, ProcessEventBatchInput, ProcessEventBatchResult } from './contracts';

/** Named option profiles: the history in the Temporal UI reads like the pipeline. */
const retry = (maximumInterval: Duration): RetryPolicy => ({ initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval, maximumAttempts: 12 });
// Steps heartbeat every second (activities/heartbeat.ts): a dead worker is noticed within 5 s.
const PROFILES = {
  status: { startToCloseTimeout: '10 seconds', retry: retry('5 seconds') },
  persist: { startToCloseTimeout: '2 minutes', heartbeatTimeout: '5 seconds', retry: retry('10 seconds') },
  attach: { startToCloseTimeout: '30 seconds', heartbeatTimeout: '5 seconds', retry: retry('5 seconds') },
  recalculate: { startToCloseTimeout: '2 minutes', heartbeatTimeout: '5 seconds', retry: retry('10 seconds') },
  ledger: { startToCloseTimeout: '1 minute', heartbeatTimeout: '5 seconds', retry: retry('10 seconds') },
} satisfies Record<string, ActivityOptions>;

const { recordBatchStatus } = proxyActivities<Activities>(PROFILES.status);
const { persistEvents } = proxyActivities<Activities>(PROFILES.persist);
const { attachDocuments } = proxyActivities<Activities>(PROFILES.attach);
const { recalculateTimeline } = proxyActivities<Activities>(PROFILES.recalculate);
const { commitLedger } = proxyActivities<Activities>(PROFILES.ledger);

/**
 * The durable event pipeline: one workflow per batch. Every step is an idempotent activity keyed by
 * the batch id, so a worker dying anywhere resumes here without storing anything twice.
 */
export async function processEventBatch(input: ProcessEventBatchInput): Promise<ProcessEventBatchResult> {
  const { batchId, accountId } = input;
  log.info('batch received', { batchId, account: input.accountName, events: input.events.length });
  await recordBatchStatus({ batchId, status: 'Running' });
  try {
    const persisted = await persistEvents(input);
    const attached = await attachDocuments({
      batchId,
      accountId,
      requests: persisted.events.map((event, i) => ({ eventId: event.id, documentIds: input.events[i].DocumentIds ?? null })),
    });
    await recalculateTimeline({ batchId, accountId });
    await commitLedger({ batchId, accountId });
    const result: EventResult[] = persisted.events.map((event, i) => ({
      ...event,
      status: 'Created',
      documentsNotAttached: attached.documentsNotAttached[i],
    }));
    await recordBatchStatus({ batchId, status: 'Completed', result });
    return { batchId, result };
  } catch (error) {
    const cause = error instanceof ActivityFailure ? error.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.nonRetryable && Array.isArray(cause.details?.[0])) {
      // A business rejection: nothing was stored; the batch fails with the activity's error list.
      const errors = cause.details[0] as BatchError[];
      await recordBatchStatus({ batchId, status: 'Failed', errors });
      throw ApplicationFailure.create({ message: cause.message, type: cause.type ?? 'BatchRejected', nonRetryable: true, details: [errors] });
    }
    const message = error instanceof Error ? error.message : String(error);
    await recordBatchStatus({ batchId, status: 'Failed', errors: [{ index: null, eventId: null, code: 'InternalError', field: null, message }] });
    throw error;
  }
}
