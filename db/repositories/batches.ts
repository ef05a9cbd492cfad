import { randomUUID } from 'node:crypto';
import { UniqueConstraintError } from 'sequelize';
import { canonicalJson, sha256Hex } from '../../domain/hashing';
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

const requestHashOf = (request: unknown): string => sha256Hex(canonicalJson(request));

/** The first request with this Idempotency-Key had another body: the key cannot stand for both. */
export class IdempotencyKeyReused extends Error {
  constructor(
    readonly key: string,
    readonly batchId: string,
  ) {
    super(`Idempotency-Key ${key} was first used with a different request body (batch ${batchId}); send a new key for a new batch.`);
  }
}

/**
 * The batches row for a submission: a new one, or with an Idempotency-Key the row of the first request
 * with that key (concurrent first requests end with the one row: the unique workflow id decides). The
 * key is bound to its request: the same key with another body is IdempotencyKeyReused.
 */
export async function findOrCreateBatch(submission: NewBatch): Promise<{ batch: Batch; created: boolean }> {
  const id = randomUUID();
  const workflowId = batchWorkflowId(submission.accountId, id, submission.idempotencyKey);
  const replayOf = (existing: Batch) => {
    if (existing.requestHash && existing.requestHash !== requestHashOf(submission.request)) throw new IdempotencyKeyReused(submission.idempotencyKey!, existing.id);
    return { batch: existing, created: false };
  };
  if (submission.idempotencyKey) {
    const existing = await Batch.findOne({ where: { workflowId } });
    if (existing) return replayOf(existing);
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
      // Only a key needs the binding; hashing a batch of several MB costs time on every submission.
      requestHash: submission.idempotencyKey ? requestHashOf(submission.request) : null,
    });
    return { batch, created: true };
  } catch (error) {
    if (!(error instanceof UniqueConstraintError) || !submission.idempotencyKey) throw error;
    const existing = await Batch.findOne({ where: { workflowId } });
    if (!existing) throw error;
    return replayOf(existing);
  }
}
