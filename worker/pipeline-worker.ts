import { DefaultLogger, Runtime, Worker, type LogLevel, type NativeConnection } from '@temporalio/worker';
import type { Sequelize } from 'sequelize';
import { createActivities } from '../activities';
import { PostgresHashChainLedger } from '../db/repositories/ledger';
import { workerIdentity, type Config, type WorkerRole } from '../platform/config';
import type { Logger } from '../platform/logger';
import { activityMetrics } from './activity-metrics';
import { workflowsPath } from './bundle';

const SDK_LEVELS: Record<string, LogLevel> = {
  trace: 'TRACE',
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARN',
  error: 'ERROR',
  fatal: 'ERROR',
};

/**
 * The Temporal SDK's runtime for a process that runs workers: its log lines go to ours, and it heartbeats
 * every WORKER_HEARTBEAT_SECONDS (/readyz tells a dead worker by its heartbeats going stale).
 */
export function installRuntime(
  logger: Logger,
  config: Pick<Config, 'workerHeartbeatSeconds'>,
  options: { shutdownSignals: NodeJS.Signals[]; prometheusPort?: number },
): void {
  Runtime.install({
    shutdownSignals: options.shutdownSignals,
    workerHeartbeatInterval: config.workerHeartbeatSeconds * 1000,
    ...(options.prometheusPort !== undefined && {
      telemetryOptions: { metrics: { prometheus: { bindAddress: `0.0.0.0:${options.prometheusPort}` } } },
    }),
    logger: new DefaultLogger(SDK_LEVELS[logger.level] ?? 'INFO', (entry) =>
      logger[entry.level.toLowerCase() as Lowercase<LogLevel>]({ ...entry.meta, sdk: true }, entry.message),
    ),
  });
}

/** The pipeline's activities on this process's database pool. */
export const pipelineActivities = (
  sequelize: Sequelize,
  logger: Logger,
  config: Pick<Config, 'urnDomain' | 'webhookAllowedHosts' | 'webhookRetrySeconds'>,
) =>
  createActivities({
    sequelize,
    logger,
    urnDomain: config.urnDomain,
    ledger: new PostgresHashChainLedger(sequelize),
    webhooks: { allowedHosts: config.webhookAllowedHosts, retrySeconds: config.webhookRetrySeconds },
  });

/**
 * How many steps a worker runs at once. Each running step holds at most one connection (its
 * transaction): a process's slots together never exceed its pool, so no step waits inside its timeout
 * for a connection (the SDK's defaults are 100 each).
 */
export interface WorkerSlots {
  /** Activity tasks; 0 polls none (the worker runs local activities only). */
  activities: number;
  localActivities: number;
}

/** A worker of the workflows and the given activities on one task queue, named by its process's role. */
export const createPipelineWorker = (
  connection: NativeConnection,
  config: Pick<Config, 'temporalNamespace' | 'workflowBundlePath'>,
  taskQueue: string,
  activities: object,
  slots: WorkerSlots,
  role: WorkerRole | 'api',
): Promise<Worker> =>
  Worker.create({
    connection,
    namespace: config.temporalNamespace,
    taskQueue,
    identity: workerIdentity(role),
    ...(config.workflowBundlePath
      ? { workflowBundle: { codePath: config.workflowBundlePath } }
      : { workflowsPath: workflowsPath() }),
    activities,
    interceptors: { activity: [activityMetrics] },
    ...(slots.activities
      ? { maxConcurrentActivityTaskExecutions: slots.activities }
      : { enableNonLocalActivities: false }),
    maxConcurrentLocalActivityExecutions: slots.localActivities,
    // A stop gives running activities this long, then cancels them: the supervisor kills at 5 s.
    shutdownGraceTime: '3s',
    shutdownForceTime: '4s',
  });
