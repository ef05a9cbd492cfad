import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import { createActivities } from '../activities';
import { migrateUp } from '../db/migrate';
import { PostgresHashChainLedger } from '../db/repositories/ledger';
import { createSequelize } from '../db/sequelize';
import { loadConfig, requireServices } from '../runtime/config';
import { createLogger } from '../runtime/logger';
import { workflowsPath } from './bundle';

const SDK_LEVELS: Record<string, LogLevel> = { trace: 'TRACE', debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', fatal: 'ERROR' };

/** The worker role alone (`npm run worker`): needs DATABASE_URL and TEMPORAL_ADDRESS. */
async function main(): Promise<void> {
  const config = requireServices(loadConfig());
  const logger = createLogger(config.logLevel, 'worker');
  Runtime.install({
    logger: new DefaultLogger(SDK_LEVELS[config.logLevel] ?? 'INFO', (entry) => {
      const level = entry.level === 'TRACE' ? 'trace' : (entry.level.toLowerCase() as 'debug' | 'info' | 'warn' | 'error');
      logger[level]({ ...entry.meta, sdk: true }, entry.message);
    }),
  });

  const sequelize = createSequelize(config.databaseUrl, 20);
  await migrateUp(sequelize, config.databaseUrl);
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  const worker = await Worker.create({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    ...(config.workflowBundlePath ? { workflowBundle: { codePath: config.workflowBundlePath } } : { workflowsPath: workflowsPath() }),
    activities: createActivities({ sequelize, logger, urnDomain: config.urnDomain, ledger: new PostgresHashChainLedger(sequelize) }),
  });
  logger.info({ taskQueue: config.taskQueue, temporal: config.temporalAddress }, 'worker running');
  process.send?.({ type: 'ready', role: 'worker' });

  // Runtime.install's default shutdownSignals (SIGINT, SIGTERM, ...) drain the worker; run() then resolves.
  await worker.run();
  logger.info('worker stopped');
  await connection.close();
  await sequelize.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
