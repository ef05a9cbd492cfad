import type { Batch, BatchStatus } from '../../../db/models';
import type { RetryRef } from '../../../db/repositories/batches';
import { errorsOf, resultsOf, type AnsweredResult } from '../../../batches/outcome';

export const createdBody = (batchId: string, result: AnsweredResult[]) => ({
  message: `${result.length} event${result.length === 1 ? '' : 's'} created.`,
  batchId,
  result,
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

/** `result` is exactly what the sync endpoint answers in its `result`; `retriedBy` the newest retry of a failed batch. */
export const batchStatusBody = (batch: Batch, retriedBy: RetryRef | null = null) => ({
  batchId: batch.id,
  status: batch.status,
  message: STATUS_MESSAGES[batch.status],
  submittedAt: batch.submittedAt.toISOString(),
  completedAt: batch.completedAt ? batch.completedAt.toISOString() : null,
  result: resultsOf(batch),
  errors: errorsOf(batch),
  retriedBy,
});
