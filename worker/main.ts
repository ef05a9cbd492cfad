import { NativeConnection } from '@temporalio/worker';
import { BULK_WORKER_NICENESS, loadConfig, requireServices } from '../platform/config';
import { createLogger } from '../platform/logger';
import { enableProcessMetrics, portOf, serveMetrics } from '../platform/metrics';
import { freePort } from '../platform/net';
import { keepWorkers, stopOnSignals } from './kept-workers';
import { installRuntime } from './pipeline-worker';
import { heartbeatsUnheard } from './heartbeat-watchdog';
import { createWorkers, lowerPriority, queuesOf, workerActivities, workerDatabase } from './worker-role';

/** The worker role alone (`npm run worker`, WORKER_ROLE says which task queues): needs DATABASE_URL and TEMPORAL_ADDRESS. */
async function main(): Promise<void> {
  const config = requireServices(loadConfig());
  // First, before the SDK's core makes its threads: they take this one's niceness.
  if (config.workerRole === 'bulk') lowerPriority(BULK_WORKER_NICENESS);
  const logger = createLogger(config.logLevel, 'worker');
  // Two Prometheus endpoints, not one merged: the SDK's exporter lives in its Rust core and owns its
  // port; ours is prom-client's registry. Scrape both (README.md, Metrics). The SDK cannot report a
  // port it picked itself, so "0" is resolved here.
  const sdkMetricsPort = config.workerMetricsPort || (await freePort());
  // Only these signals: after any other, every new worker keepWorkers makes would stop at once.
  installRuntime(logger, config, { shutdownSignals: ['SIGINT', 'SIGTERM'], prometheusPort: sdkMetricsPort });
  enableProcessMetrics('worker');
  const metricsServer = await serveMetrics(config.workerAppMetricsPort);
  const appMetricsPort = portOf(metricsServer);
  const sequelize = await workerDatabase(config);
  const activities = workerActivities(sequelize, logger, config);

  await keepWorkers({
    logger: logger.child({ temporal: config.temporalAddress }),
    stop: stopOnSignals(),
    connect: () => NativeConnection.connect({ address: config.temporalAddress }),
    createWorkers: (connection) => createWorkers(connection, config, activities, logger),
    unheard: (...watch) => heartbeatsUnheard(config, ...watch),
    running(again) {
      if (again) return logger.info({ temporal: config.temporalAddress }, 'worker running again');
      const metrics = {
        appMetrics: `http://127.0.0.1:${appMetricsPort}/metrics`,
        sdkMetrics: `http://127.0.0.1:${sdkMetricsPort}/metrics`,
      };
      const taskQueues = queuesOf(config).map(({ taskQueue }) => taskQueue);
      logger.info(
        { workerRole: config.workerRole, taskQueues, temporal: config.temporalAddress, ...metrics },
        'worker running',
      );
      process.send?.({ type: 'ready', role: 'worker', workerRole: config.workerRole, appMetricsPort, sdkMetricsPort });
    },
  });
  logger.info('worker stopped');
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
