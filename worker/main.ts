import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import { createActivities } from '../activities';
import { migrateUp } from '../db/migrate';
import { PostgresHashChainLedger } from '../db/repositories/ledger';
import { createSequelize } from '../db/sequelize';
import { loadConfig, requireServices } from '../runtime/config';
import { createLogger } from '../runtime/logger';
import { enableProcessMetrics, portOf, serveMetrics } from '../runtime/metrics';
import { freePort } from '../runtime/net';
import { ensureReconcileSchedule } from '../runtime/reconciler';
import { connectTemporalClient } from '../runtime/temporal-client';
import { activityMetrics } from './activity-metrics';
import { workflowsPath } from './bundle';

const SDK_LEVELS: Record<string, LogLevel> = { trace: 'TRACE', debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', fatal: 'ERROR' };

/** The worker role alone (`npm run worker`): needs DATABASE_URL and TEMPORAL_ADDRESS. */
async function main(): Promise<void> {
  const config = requireServices(loadConfig());
  const logger = createLogger(config.logLevel, 'worker');
  // Two Prometheus endpoints, not one merged: the SDK's exporter lives in its Rust core and owns its
  // port; ours is prom-client's registry. Scrape both (README.md, Metrics). The SDK cannot report a
  // port it picked itself, so "0" is resolved here.
  const sdkMetricsPort = config.workerMetricsPort || (await freePort());
  Runtime.install({
    telemetryOptions: { metrics: { prometheus: { bindAddress: `0.0.0.0:${sdkMetricsPort}` } } },
    logger: new DefaultLogger(SDK_LEVELS[config.logLevel] ?? 'INFO', (entry) => {
      const level = entry.level === 'TRACE' ? 'trace' : (entry.level.toLowerCase() as 'debug' | 'info' | 'warn' | 'error');
      logger[level]({ ...entry.meta, sdk: true }, entry.message);
    }),
  });

  enableProcessMetrics();
  const metricsServer = await serveMetrics(config.workerAppMetricsPort);
  const appMetricsPort = portOf(metricsServer);

  const sequelize = createSequelize(config.databaseUrl, 20);
  await migrateUp(sequelize, config.databaseUrl);
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  const worker = await Worker.create({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    ...(config.workflowBundlePath ? { workflowBundle: { codePath: config.workflowBundlePath } } : { workflowsPath: workflowsPath() }),
    activities: createActivities({ sequelize, logger, urnDomain: config.urnDomain, ledger: new PostgresHashChainLedger(sequelize) }),
    interceptors: { activity: [activityMetrics] },
  });
  const client = await connectTemporalClient(config.temporalAddress, config.temporalNamespace);
  try {
    await ensureReconcileSchedule(client, { taskQueue: config.taskQueue, everySeconds: config.reconcileEverySeconds, afterSeconds: config.reconcileAfterSeconds });
  } finally {
    await client.connection.close();
  }
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

  // Runtime.install's default shutdownSignals (SIGINT, SIGTERM, ...) drain the worker; run() then resolves.
  await worker.run();
  logger.info('worker stopped');
  await connection.close();
  await sequelize.close();
  await new Promise((resolve) => metricsServer.close(resolve));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
