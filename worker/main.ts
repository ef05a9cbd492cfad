import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import { createActivities } from '../activities';
import { withHeartbeat } from '../activities/heartbeat';
import { startStrandedBatches } from '../batches/start-stranded-batches';
import { migrateUp } from '../db/migrate';
import { PostgresHashChainLedger } from '../db/repositories/ledger';
import { createSequelize } from '../db/sequelize';
import { loadConfig, requireServices, WORKER_HEARTBEAT_SECONDS } from '../platform/config';
import { createLogger } from '../platform/logger';
import { countStatements, enableProcessMetrics, portOf, serveMetrics } from '../platform/metrics';
import { freePort } from '../platform/net';
import { DEFAULT_BACKOFF } from '../platform/kept-service';
import { ensureReconciler } from '../batches/reconciler';
import { ensureSearchAttributes } from '../platform/search-attributes';
import { connectTemporalClient } from '../platform/temporal-client';
import { activityMetrics, currentActivityType } from './activity-metrics';
import { workflowsPath } from './bundle';

/**
 * Each running activity holds at most one connection (its transaction): slots for activities and local
 * activities together never exceed the pool, so no step waits inside its timeout for a connection
 * (the SDK's defaults are 100 each). Beyond the pool's size more slots would only queue in it.
 */
const POOL_SIZE = 20;
// A small batch runs its steps here (PIPELINE_LOCAL_MAX_EVENTS), up to three side by side: eight slots
// keep a few such batches going at once; twelve activity slots still run four clients' large batches.
const LOCAL_ACTIVITY_SLOTS = 8;

const SDK_LEVELS: Record<string, LogLevel> = {
  trace: 'TRACE',
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARN',
  error: 'ERROR',
  fatal: 'ERROR',
};

/** The worker role alone (`npm run worker`): needs DATABASE_URL and TEMPORAL_ADDRESS. */
async function main(): Promise<void> {
  const config = requireServices(loadConfig());
  const logger = createLogger(config.logLevel, 'worker');
  // Two Prometheus endpoints, not one merged: the SDK's exporter lives in its Rust core and owns its
  // port; ours is prom-client's registry. Scrape both (README.md, Metrics). The SDK cannot report a
  // port it picked itself, so "0" is resolved here.
  const sdkMetricsPort = config.workerMetricsPort || (await freePort());
  Runtime.install({
    // Only these: after any other, every new worker of the loop below would stop at once.
    shutdownSignals: ['SIGINT', 'SIGTERM'],
    // /readyz tells a dead worker by its heartbeats going stale (api/routes/health).
    workerHeartbeatInterval: WORKER_HEARTBEAT_SECONDS * 1000,
    telemetryOptions: { metrics: { prometheus: { bindAddress: `0.0.0.0:${sdkMetricsPort}` } } },
    logger: new DefaultLogger(SDK_LEVELS[config.logLevel] ?? 'INFO', (entry) => {
      const level =
        entry.level === 'TRACE' ? 'trace' : (entry.level.toLowerCase() as 'debug' | 'info' | 'warn' | 'error');
      logger[level]({ ...entry.meta, sdk: true }, entry.message);
    }),
  });

  enableProcessMetrics('worker');
  const metricsServer = await serveMetrics(config.workerAppMetricsPort);
  const appMetricsPort = portOf(metricsServer);

  const sequelize = createSequelize(config.databaseUrl, POOL_SIZE);
  countStatements(sequelize, currentActivityType);
  await migrateUp(sequelize, config.databaseUrl);
  const webhooks = { allowedHosts: config.webhookAllowedHosts, retrySeconds: config.webhookRetrySeconds };
  const activities = {
    ...createActivities({
      sequelize,
      logger,
      urnDomain: config.urnDomain,
      ledger: new PostgresHashChainLedger(sequelize),
      webhooks,
    }),
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
      const worker = await Worker.create({
        connection,
        namespace: config.temporalNamespace,
        taskQueue: config.taskQueue,
        ...(config.workflowBundlePath
          ? { workflowBundle: { codePath: config.workflowBundlePath } }
          : { workflowsPath: workflowsPath() }),
        activities,
        interceptors: { activity: [activityMetrics] },
        maxConcurrentActivityTaskExecutions: POOL_SIZE - LOCAL_ACTIVITY_SLOTS,
        maxConcurrentLocalActivityExecutions: LOCAL_ACTIVITY_SLOTS,
        // A stop gives running activities this long, then cancels them: the supervisor kills at 5 s.
        shutdownGraceTime: '3s',
        shutdownForceTime: '4s',
      });
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
      await worker.run();
      if (!stop.requested) throw new Error('worker stopped polling without a shutdown request');
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
