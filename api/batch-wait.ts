import { setTimeout as sleep } from 'node:timers/promises';
import type { Batch } from '../db/models';
import { isFinished } from '../batches/outcome';
import type { APIContext } from './context';
import { preferredWaitSeconds } from './prefer';

/**
 * Batch `id` as a status GET reads it (`read`), read with the request's `Prefer: wait=N` (RFC 7240's
 * preference, read as this API's long poll): a batch still under way is read again once PostgreSQL
 * announces its row finished, or after at most N seconds (at most SYNC_WAIT_SECONDS), instead of at
 * once. The wait is registered before the first read, so that no finish is missed; announcements name
 * the id as PostgreSQL prints a uuid. It waits on the announcement alone: a lost one costs the client the
 * rest of its wait, not a Temporal long poll per waiting client. While the listener is not connected, or
 * once the client has hung up, nothing is waited for. The answer says `Preference-Applied: wait=N` when
 * a wait was applied, and varies on Prefer.
 */
export async function readWhenFinished<T extends Pick<Batch, 'status'>>(
  ctx: APIContext,
  id: string,
  read: () => Promise<T | null>,
  /**
   * The batch's status alone, for the read before a wait when `read` reads more than the answer to a
   * batch still running needs (a capture job's row): `read` then runs once, when the wait is over.
   */
  peek?: () => Promise<Pick<Batch, 'status'> | null>,
): Promise<T | null> {
  const { batchFinished, config } = ctx.deps;
  const preferred = preferredWaitSeconds(ctx.get('Prefer'));
  ctx.vary('Prefer');
  if (preferred === undefined || !batchFinished.listening || ctx.req.socket.destroyed) return read();
  const waitSeconds = Math.min(preferred, config.syncWaitSeconds);
  const announced = batchFinished.waitFor(id.toLowerCase());
  const stop = new AbortController();
  const hungUp = () => stop.abort();
  ctx.res.once('close', hungUp);
  try {
    const first = await (peek ?? read)();
    if (first && !isFinished(first) && !stop.signal.aborted)
      await Promise.race([
        announced.finished,
        sleep(waitSeconds * 1000, undefined, { signal: stop.signal }).catch(() => undefined),
      ]);
    // Read for the answer after a peek, and after a wait the client did not hang up on; else the first read is it.
    const again = first !== null && (peek !== undefined || (!isFinished(first) && !stop.signal.aborted));
    const batch = again ? await read() : (first as T | null);
    if (batch) ctx.set('Preference-Applied', `wait=${waitSeconds}`);
    return batch;
  } finally {
    stop.abort();
    announced.cancel();
    ctx.res.off('close', hungUp);
  }
}
