import { NativeConnection } from '@temporalio/worker';
import { withHeartbeat } from '../activities/heartbeat';
import { startStrandedBatches } from '../batches/start-stranded-batches';
import { migrateUp } from '../db/migrate';
import { createSequelize } from '../db/sequelize';
import { onEveryStatement } from '../db/sql';
import { loadConfig, requireServices, syncTaskQueueOf, WORKER_HEARTBEAT_STALE_SECONDS } from '../platform/config';
import { createLogger } from '../platform/logger';
import { enableProcessMetrics, portOf, serveMetrics, statementCounter } from '../platform/metrics';
import { freePort } from '../platform/net';
import { DEFAULT_BACKOFF } from '../platform/kept-service';
import { ensureReconciler } from '../batches/reconciler';
import { ensureSearchAttributes } from '../platform/search-attributes';
import { connectTemporalClient } from '../platform/temporal-client';
import { currentActivityType } from './activity-metrics';
import {
  createPipelineWorker,
  heartbeatsLost,
  installRuntime,
  pipelineActivities,
  type WorkerSlots,
} from './pipeline-worker';

// The sync task queue's share is for small sync batches the API's own worker did not take.
const SYNC_SLOTS: WorkerSlots = { activities: 2, localActivities: 2 };

/** The worker role alone (`npm run worker`): needs DATABASE_URL and TEMPORAL_ADDRESS. */
async function main(): Promise<void> {
  const config = requireServices(loadConfig());
  const logger = createLogger(config.logLevel, 'worker');
  // Two Prometheus endpoints, not one merged: the SDK's exporter lives in its Rust core and owns its
  // port; ours is prom-client's registry. Scrape both (README.md, Metrics). The SDK cannot report a
  // port it picked itself, so "0" is resolved here.
  const sdkMetricsPort = config.workerMetricsPort || (await freePort());
  // Only these signals: after any other, every new worker of the loop below would stop at once.
  installRuntime(logger, { shutdownSignals: ['SIGINT', 'SIGTERM'], prometheusPort: sdkMetricsPort });

  enableProcessMetrics('worker');
  const metricsServer = await serveMetrics(config.workerAppMetricsPort);
  const appMetricsPort = portOf(metricsServer);

  // A batch's steps run as local activities (PIPELINE_LOCAL_MAX_EVENTS) or as activity tasks: either way
  // as many at once as WORKER_ACTIVITY_SLOTS says, since a 500-event step keeps a core busy.
  const steps = config.workerActivitySlots;
  const slots: WorkerSlots = { activities: steps, localActivities: steps };
  const poolSize = [slots, SYNC_SLOTS].reduce(
    (sum, { activities, localActivities }) => sum + activities + localActivities,
    0,
  );
  const sequelize = createSequelize(config.databaseUrl, poolSize);
  onEveryStatement(
    sequelize,
    statementCounter(() => currentActivityType()),
  );
  await migrateUp(sequelize, config.databaseUrl);
  const webhooks = { allowedHosts: config.webhookAllowedHosts, retrySeconds: config.webhookRetrySeconds };
  const activities = {
    ...pipelineActivities(sequelize, logger, config),
    // The reconciler's: the batch use case's, not a pipeline step.
    startStrandedBatches: withHeartbeat(
      startStrandedBatches({ sequelize, logger, webhooks, localMaxEvents: config.pipelineLocalMaxEvents }),
    ),
  };
  const stop = stopRequested();
  let announced = false;
  let delayMs = DEFAULT_BACKOFF.initialMs;
  // SIGINT and SIGTERM drain the worker (Runtime.install above) and run() resolves. A Temporal
  // restart of a few minutes does not end run() (the SDK's core retries its polls); should anything
  // end it, or Temporal be unreachable at start-up, a new connection and worker follow a backoff.
  while (!stop.requested) {
    const startedAt = Date.now();
    let connection: NativeConnection | undefined;
    try {
      connection = await NativeConnection.connect({ address: config.temporalAddress });
      await ensureSearchAttributes(connection, config.temporalNamespace, logger);
      const workers = await Promise.all([
        createPipelineWorker(connection, config, config.taskQueue, activities, slots),
        createPipelineWorker(connection, config, syncTaskQueueOf(config.taskQueue), activities, SYNC_SLOTS),
      ]);
      // The reconciler follows this worker's settings; Temporal is reachable by now.
      const client = await connectTemporalClient(config.temporalAddress, config.temporalNamespace);
      try {
        await ensureReconciler(client, {
          taskQueue: config.taskQueue,
          everySeconds: config.reconcileEverySeconds,
          afterSeconds: config.reconcileAfterSeconds,
        });
      } finally {
        await client.connection.close();
      }
      if (!announced) {
        announced = true;
        logger.info(
          {
            taskQueue: config.taskQueue,
            temporal: config.temporalAddress,
            appMetrics: `http://127.0.0.1:${appMetricsPort}/metrics`,
            sdkMetrics: `http://127.0.0.1:${sdkMetricsPort}/metrics`,
          },
          'worker running',
        );
        process.send?.({ type: 'ready', role: 'worker', appMetricsPort, sdkMetricsPort });
      } else {
        logger.info({ temporal: config.temporalAddress }, 'worker running again');
      }
      // Both run until a stop drains them; should one end without it, the other is stopped and both begin
      // again. So do they when Temporal gets no more of their heartbeats (heartbeatsLost).
      const runs = workers.map((worker) => worker.run());
      const stopAll = () => {
        for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
      };
      const watching = new AbortController();
      let unheard = false;
      void heartbeatsLost(
        connection,
        config.temporalNamespace,
        config.taskQueue,
        workers[0].options.identity,
        startedAt,
        WORKER_HEARTBEAT_STALE_SECONDS * 1000,
        watching.signal,
      ).then((lost) => {
        if (!lost || watching.signal.aborted) return;
        unheard = true;
        stopAll();
      });
      try {
        await Promise.race(runs);
      } finally {
        watching.abort();
        stopAll();
        await Promise.allSettled(runs);
      }
      if (!stop.requested)
        throw new Error(
          unheard
            ? `Temporal has had no heartbeat of this worker for ${WORKER_HEARTBEAT_STALE_SECONDS} s`
            : 'worker stopped polling without a shutdown request',
        );
    } catch (error) {
      if (stop.requested) break;
      if (Date.now() - startedAt >= DEFAULT_BACKOFF.resetAfterMs) delayMs = DEFAULT_BACKOFF.initialMs;
      logger.error(
        { err: error, temporal: config.temporalAddress, delayMs },
        `worker failed; a new connection and worker in ${delayMs} ms`,
      );
      await stop.orAfter(delayMs);
      delayMs = Math.min(delayMs * 2, DEFAULT_BACKOFF.maxMs);
    } finally {
      await connection?.close().catch(() => undefined);
    }
  }
  logger.info('worker stopped');
  await sequelize.close();
  await new Promise((resolve) => metricsServer.close(resolve));
}

/** The signals Runtime.install drains workers on, seen here too: between two workers there is none to drain. */
function stopRequested(): { requested: boolean; orAfter(ms: number): Promise<void> } {
  let wake: () => void = () => undefined;
  const state = {
    requested: false,
    orAfter: (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      state.requested = true;
      wake();
    });
  }
  return state;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
