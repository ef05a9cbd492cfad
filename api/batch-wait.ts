import type { Batch } from '../db/models';
import { isFinished, untilBatchFinished } from '../batches/outcome';
import type { APIContext } from './context';
import { preferredWaitSeconds } from './prefer';

/**
 * A batch's row as a status GET answers it, read with the request's `Prefer: wait=N` (RFC 7240's
 * preference, read as this API's long poll): a batch still under way is read again once it has
 * finished, or after at most N seconds (at most SYNC_WAIT_SECONDS), instead of at once. The wait is a
 * sync call's (untilBatchFinished), registered before the first read so that no finish is missed;
 * announcements name the id as PostgreSQL prints a uuid. A client that hangs up ends it. The answer
 * says `Preference-Applied: wait=N` when a wait was asked for, and varies on Prefer.
 */
export async function readWhenFinished<T extends Batch>(
  ctx: APIContext,
  id: string,
  read: () => Promise<T | null>,
): Promise<T | null> {
  const { batchFinished, config } = ctx.deps;
  const preferred = preferredWaitSeconds(ctx.get('Prefer'));
  const waitSeconds = preferred === undefined ? 0 : Math.min(preferred, config.syncWaitSeconds);
  ctx.vary('Prefer');
  if (!waitSeconds) return read();
  const announced = batchFinished.waitFor(id.toLowerCase());
  const hungUp = new AbortController();
  const onClose = () => hungUp.abort();
  ctx.res.once('close', onClose);
  try {
    let batch = await read();
    if (batch && !isFinished(batch)) {
      const handle = ctx.deps.temporal.workflow.getHandle(batch.workflowId);
      await untilBatchFinished(ctx.deps, handle, announced, waitSeconds, hungUp.signal);
      batch = await read();
    }
    if (batch) ctx.set('Preference-Applied', `wait=${waitSeconds}`);
    return batch;
  } finally {
    announced.cancel();
    ctx.res.off('close', onClose);
  }
}
