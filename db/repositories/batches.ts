import { randomUUID } from 'node:crypto';
import { UniqueConstraintError } from 'sequelize';
import { Batch, type BatchMode } from '../models';

export interface NewBatch {
  accountId: string;
  mode: BatchMode;
  request: unknown;
  eventCount: number;
  idempotencyKey?: string;
  retryOf?: string;
  requestId?: string;
}

/** With a key, the workflow id is the account's key; without one, the batch's own id. */
export const batchWorkflowId = (accountId: string, batchId: string, idempotencyKey: string | undefined): string =>
  idempotencyKey ? `batch-${accountId}-${idempotencyKey}` : `batch-${batchId}`;

/**
 * The batches row for a submission: a new one, or with an Idempotency-Key the row of the first request
 * with that key (concurrent first requests end with the one row: the unique workflow id decides).
 */
export async function findOrCreateBatch(submission: NewBatch): Promise<{ batch: Batch; created: boolean }> {
  const id = randomUUID();
  const workflowId = batchWorkflowId(submission.accountId, id, submission.idempotencyKey);
  if (submission.idempotencyKey) {
    const existing = await Batch.findOne({ where: { workflowId } });
    if (existing) return { batch: existing, created: false };
  }
  try {
    const batch = await Batch.create({
      id,
      accountId: submission.accountId,
      workflowId,
      idempotencyKey: submission.idempotencyKey ?? null,
      mode: submission.mode,
      status: 'Accepted',
      eventCount: submission.eventCount,
      request: submission.request,
      result: null,
      errors: null,
      startedAt: null,
      completedAt: null,
      retryOf: submission.retryOf ?? null,
      requestId: submission.requestId ?? null,
    });
    return { batch, created: true };
  } catch (error) {
    if (!(error instanceof UniqueConstraintError) || !submission.idempotencyKey) throw error;
    const existing = await Batch.findOne({ where: { workflowId } });
    if (!existing) throw error;
    return { batch: existing, created: false };
  }
}
