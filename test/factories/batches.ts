import type { Batch, BatchMode } from '../../db/models';
import { findOrCreateBatch } from '../../db/repositories/batches';
import type { EventPayload } from '../../domain/events';
import { models } from '../helpers/db';

/** A batch of these events stored the way the API stores one, its workflow not started. */
export async function storedBatch(
  accountId: string,
  events: EventPayload[],
  mode: BatchMode = 'async',
  idempotencyKey?: string,
): Promise<Batch> {
  models();
  const { batch } = await findOrCreateBatch({
    accountId,
    mode,
    request: { Events: events },
    eventCount: events.length,
    idempotencyKey,
  });
  return batch;
}
