import type { Batch, BatchStatus } from '../../../db/models';
import type { RetryRef } from '../../../db/repositories/batches';
import type { EventPayload } from '../../../domain/events';
import { gdstWarnings, requestVesselOf, type KdeWarning } from '../../../domain/gdst';
import type { BatchError, EventResult } from '../../../workflows/contracts';

export const createdBody = (batchId: string, result: AnsweredResult[]) => ({
  message: `${result.length} event${result.length === 1 ? '' : 's'} created.`,
  batchId,
  result,
});

/** DESIGN.md: a rejected batch stores nothing and lists every failure. */
export const rejectedBody = (errors: BatchError[]) => ({
  message: `The batch was rejected: ${errors.length} error${errors.length === 1 ? '' : 's'}; nothing was stored.`,
  result: [],
  errors,
});

export const statusUrl = (batchId: string): string => `/Integration/Events/async/${batchId}`;

export const acceptedBody = (batch: Batch) => ({
  message: 'The batch was accepted; follow statusUrl for its result.',
  batchId: batch.id,
  status: 'Accepted',
  statusUrl: statusUrl(batch.id),
});

/** What each status means for the caller: the body says it, so nobody needs to look it up. */
const STATUS_MESSAGES: Record<BatchStatus, string> = {
  Accepted:
    'Stored and waiting for the pipeline. A batch whose processing could not be started (Temporal unreachable) is started automatically ' +
    'once it has waited about a minute; nothing needs to be sent again.',
  Running: 'The pipeline is processing the batch.',
  Completed: 'Every event was stored; result lists them.',
  Failed: 'Nothing of the batch was stored; errors says why.',
};

/** An event's result as answered: with the GDST KDEs its event lacks, when there are some. */
export type AnsweredResult = EventResult & { warnings?: KdeWarning[] };

/**
 * Each result with the GDST KDEs its event lacks (`warnings`, only when there are some): as the pipeline
 * derived them from the stored master data, or, for a batch stored before it kept them, from its request.
 */
function withGdstWarnings(batch: Pick<Batch, 'result' | 'request' | 'warnings'>): AnsweredResult[] | null {
  const result = (batch.result as EventResult[] | null) ?? null;
  const kept = batch.warnings as KdeWarning[][] | null;
  const events = (batch.request as { Events?: EventPayload[] } | null)?.Events ?? [];
  const warningsOf = (i: number): KdeWarning[] => (kept ? (kept[i] ?? []) : events[i] ? gdstWarnings(events[i], i, requestVesselOf(events[i])) : []);
  return (
    result?.map((entry, i) => {
      const warnings = warningsOf(i);
      return warnings.length ? { ...entry, warnings } : entry;
    }) ?? null
  );
}

/** `result` is exactly what the sync endpoint answers in its `result`; `retriedBy` the newest retry of a failed batch. */
export const batchStatusBody = (batch: Batch, retriedBy: RetryRef | null = null) => ({
  batchId: batch.id,
  status: batch.status,
  message: STATUS_MESSAGES[batch.status],
  submittedAt: batch.submittedAt.toISOString(),
  completedAt: batch.completedAt ? batch.completedAt.toISOString() : null,
  result: withGdstWarnings(batch),
  errors: (batch.errors as BatchError[] | null) ?? null,
  retriedBy,
});
