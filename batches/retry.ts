/**
 * What support does with a Failed batch: retry it (a new batch with its events, its own workflow) or
 * abandon it (kept, no longer open). The API (POST /Integration/Batches/{id}/retry and .../abandon, the
 * support page) and the CLI (`npm run batch`) both come here; the row locking is db/repositories/batches.ts's.
 */
import type { Batch } from '../db/models';
import { abandonBatch as abandonRow, AbandonRefused, createRetry, RetryRefused } from '../db/repositories/batches';
import type { BatchOutcome } from './outcome';
import { runBatch, type BatchDeps } from './submit';

/** A retry: refused (why, and what stands in its way), or stored as a new batch. */
export type StoredRetry = { kind: 'refused'; refusal: RetryRefused } | { kind: 'stored'; retry: Batch };

/**
 * Stores the retry of a Failed batch, or says why not (only Failed, not abandoned, not replaced, no
 * retry done or under way). Its workflow is not started yet: runBatch does that.
 */
export async function storeRetry(originalId: string, requestId: string | null): Promise<StoredRetry> {
  try {
    return { kind: 'stored', retry: await createRetry(originalId, requestId) };
  } catch (error) {
    if (error instanceof RetryRefused) return { kind: 'refused', refusal: error };
    throw error;
  }
}

/** A retry stored and started (`pending`, or `notStarted` for the reconciler to start), or refused. */
export type RetryOutcome =
  { kind: 'refused'; refusal: RetryRefused } | { kind: 'retried'; retry: Batch; outcome: BatchOutcome };

/** Retries a Failed batch of account `accountName`: stores the new batch and starts its workflow. */
export async function retryBatch(
  deps: BatchDeps,
  originalId: string,
  accountName: string,
  requestId: string | null,
): Promise<RetryOutcome> {
  const stored = await storeRetry(originalId, requestId);
  if (stored.kind === 'refused') return stored;
  return {
    kind: 'retried',
    retry: stored.retry,
    outcome: await runBatch(deps, stored.retry, { accountName, wait: false, requestId }),
  };
}

/** An abandon: refused (why), or done. */
export type AbandonOutcome = { kind: 'refused'; refusal: AbandonRefused } | { kind: 'abandoned'; batch: Batch };

/**
 * Marks a Failed batch Abandoned with the reason and the support key (null: the CLI). Refused for a
 * batch that is not Failed, abandoned already, replaced, or has a retry under way.
 */
export async function abandonBatch(batchId: string, reason: string, keyId: string | null): Promise<AbandonOutcome> {
  try {
    return { kind: 'abandoned', batch: await abandonRow(batchId, reason, keyId) };
  } catch (error) {
    if (error instanceof AbandonRefused) return { kind: 'refused', refusal: error };
    throw error;
  }
}
