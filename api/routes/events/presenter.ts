import type { Batch } from '../../../db/models';
import type { BatchError, EventResult } from '../../../workflows/contracts';

export const createdBody = (result: EventResult[]) => ({
  message: `${result.length} event${result.length === 1 ? '' : 's'} created.`,
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

/** `result` is exactly what the sync endpoint answers in its `result`. */
export const batchStatusBody = (batch: Batch) => ({
  batchId: batch.id,
  status: batch.status,
  submittedAt: batch.submittedAt.toISOString(),
  completedAt: batch.completedAt ? batch.completedAt.toISOString() : null,
  result: (batch.result as EventResult[] | null) ?? null,
  errors: (batch.errors as BatchError[] | null) ?? null,
});
