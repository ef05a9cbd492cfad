import { setTimeout as sleep } from 'node:timers/promises';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { DEFAULT_BACKOFF, type Backoff } from '../platform/kept-service';
import type { Logger } from '../platform/logger';

export interface KeepWorkersOptions {
  logger: Logger;
  /** Aborted when the process is asked to stop: the workers drain and keepWorkers resolves. */
  stop: AbortSignal;
  connect(): Promise<NativeConnection>;
  /** The workers of one connection, and whatever must follow them (they may poll by then). */
  createWorkers(connection: NativeConnection): Promise<Worker[]>;
  /**
   * The watchdog of one connection's workers: resolves to why Temporal no longer hears them (they are
   * then stopped and made anew), or to undefined once `signal` aborts or there is nothing to watch.
   */
  unheard(
    connection: NativeConnection,
    workers: Worker[],
    since: number,
    signal: AbortSignal,
  ): Promise<string | undefined>;
  /** Each time a connection's workers run: `again` from the second on. */
  running(again: boolean): void;
  backoff?: Backoff;
}

/**
 * Runs `workers` until all end (a stop drains them) or one does, or the watchdog says Temporal no longer
 * hears them: then every one is stopped. Resolves to the watchdog's reason, if it was that.
 */
async function runWorkers(
  workers: Worker[],
  stop: AbortSignal,
  watchdog: (signal: AbortSignal) => Promise<string | undefined>,
): Promise<string | undefined> {
  const runs = workers.map((worker) => worker.run());
  const stopAll = () => {
    for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
  };
  const watching = new AbortController();
  let unheard: string | undefined;
  void watchdog(watching.signal).then((reason) => {
    if (!reason || watching.signal.aborted) return;
    unheard = reason;
    stopAll();
  });
  stop.addEventListener('abort', stopAll);
  try {
    await Promise.race(runs);
  } finally {
    watching.abort();
    stop.removeEventListener('abort', stopAll);
    stopAll();
    await Promise.allSettled(runs);
  }
  return unheard;
}

/**
 * Keeps a connection's workers running until `stop`. A Temporal restart of a few minutes does not end
 * a worker's run() (the SDK's core retries its polls); should anything end it, or the watchdog find the
 * workers unheard, or Temporal be unreachable at start-up, a new connection and workers follow a backoff.
 */
export async function keepWorkers(options: KeepWorkersOptions): Promise<void> {
  const { logger, stop, backoff = DEFAULT_BACKOFF } = options;
  let delayMs = backoff.initialMs;
  let runs = 0;
  while (!stop.aborted) {
    const startedAt = Date.now();
    let connection: NativeConnection | undefined;
    try {
      connection = await options.connect();
      const workers = await options.createWorkers(connection);
      if (stop.aborted) break;
      options.running(runs++ > 0);
      const session = connection;
      const unheard = await runWorkers(workers, stop, (signal) => options.unheard(session, workers, startedAt, signal));
      if (!stop.aborted) throw new Error(unheard ?? 'worker stopped polling without a shutdown request');
    } catch (error) {
      if (stop.aborted) break;
      if (Date.now() - startedAt >= backoff.resetAfterMs) delayMs = backoff.initialMs;
      logger.error({ err: error, delayMs }, `worker failed; a new connection and worker in ${delayMs} ms`);
      await sleep(delayMs, undefined, { signal: stop }).catch(() => undefined);
      delayMs = Math.min(delayMs * 2, backoff.maxMs);
    } finally {
      await connection?.close().catch(() => undefined);
    }
  }
}

/** Aborted on the first SIGINT or SIGTERM. */
export function stopOnSignals(): AbortSignal {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());
  return controller.signal;
}
