import { setTimeout as sleep } from 'node:timers/promises';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { heartbeatStaleSeconds, type Config } from '../platform/config';

/**
 * Resolves true once Temporal, answering and keeping worker heartbeats, has held no heartbeat of the
 * worker `identity` on `taskQueue` for `staleMs` since the watch began (counting only heartbeats of a
 * worker started at `since` or later, not an earlier one of this process), asking every `everyMs`; false when the watch is
 * aborted or the server keeps none. The SDK's core can stop heartbeating for good: it asks the namespace
 * once, as the first worker of a connection registers, whether the server keeps heartbeats, and gives up
 * when that ask fails (Temporal still starting) or when a beat is answered Unimplemented. /readyz then
 * needs 75 s instead of 20 to tell this worker gone. Workers registered anew heartbeat again.
 */
export async function heartbeatsLost(
  connection: NativeConnection,
  namespace: string,
  taskQueue: string,
  identity: string,
  since: number,
  staleMs: number,
  everyMs: number,
  signal: AbortSignal,
): Promise<boolean> {
  const service = connection.workflowService;
  const msOf = (time: { seconds?: Long | number | null; nanos?: number | null } | null | undefined) =>
    Number(time?.seconds ?? 0) * 1000 + (time?.nanos ?? 0) / 1e6;
  let kept: boolean | undefined;
  // The last time a beat of ours was seen, or the watch began, or Temporal began answering again.
  let fresh = Date.now();
  let answering = true;
  while (!signal.aborted) {
    try {
      kept ??= (await service.describeNamespace({ namespace })).namespaceInfo?.capabilities?.workerHeartbeats ?? false;
      if (!kept) return false;
      const { workersInfo } = await service.listWorkers({
        namespace,
        pageSize: 1000,
        query: `TaskQueue = ${JSON.stringify(taskQueue)}`,
      });
      if (signal.aborted) return false;
      if (!answering) fresh = Math.max(fresh, Date.now());
      answering = true;
      for (const { workerHeartbeat: beat } of workersInfo ?? [])
        if (beat?.workerIdentity === identity && msOf(beat.startTime) >= since)
          fresh = Math.max(fresh, msOf(beat.heartbeatTime));
      if (Date.now() - fresh > staleMs) return true;
    } catch {
      answering = false; // Temporal away: its silence is not the worker's.
    }
    await sleep(everyMs, undefined, { signal }).catch(() => undefined);
  }
  return false;
}

/** The watchdog (keepWorkers' `unheard`): Temporal has kept no heartbeat of the process's first worker lately. */
export async function heartbeatsUnheard(
  config: Pick<Config, 'temporalNamespace' | 'workerHeartbeatSeconds'>,
  connection: NativeConnection,
  [worker]: Worker[],
  since: number,
  signal: AbortSignal,
): Promise<string | undefined> {
  const stale = heartbeatStaleSeconds(config);
  const { temporalNamespace, workerHeartbeatSeconds } = config;
  const { identity, taskQueue } = worker.options;
  const lost = await heartbeatsLost(
    connection,
    temporalNamespace,
    taskQueue,
    identity,
    since,
    stale * 1000,
    workerHeartbeatSeconds * 1000,
    signal,
  );
  return lost ? `Temporal has had no heartbeat of this worker for ${stale} s` : undefined;
}
