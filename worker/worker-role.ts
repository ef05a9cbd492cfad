import type { NativeConnection, Worker } from '@temporalio/worker';
import type { Sequelize } from 'sequelize';
import { withHeartbeat } from '../activities/heartbeat';
import { ensureReconciler } from '../batches/reconciler';
import { startStrandedBatches } from '../batches/start-stranded-batches';
import { migrateUp } from '../db/migrate';
import { createSequelize } from '../db/sequelize';
import { onEveryStatement } from '../db/sql';
import { syncTaskQueueOf, type Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import { statementCounter } from '../platform/metrics';
import { ensureSearchAttributes } from '../platform/search-attributes';
import { connectTemporalClient } from '../platform/temporal-client';
import { currentActivityType } from './activity-metrics';
import { createPipelineWorker, pipelineActivities, type WorkerSlots } from './pipeline-worker';

/** What `npm run worker` runs, piece by piece: worker/main.ts wires them together. */
type WorkerConfig = Config & { databaseUrl: string; temporalAddress: string };

// The sync task queue's share is for small sync batches the API's own worker did not take.
const SYNC_SLOTS: WorkerSlots = { activities: 2, localActivities: 2 };

/**
 * A batch's steps run as local activities (PIPELINE_LOCAL_MAX_EVENTS) or as activity tasks: either way
 * as many at once as WORKER_ACTIVITY_SLOTS says, since a 500-event step keeps a core busy.
 */
const slotsOf = (config: WorkerConfig): WorkerSlots => ({
  activities: config.workerActivitySlots,
  localActivities: config.workerActivitySlots,
});

/** The worker's pool, one connection per slot of both task queues, its statements counted by step; migrated. */
export async function workerDatabase(config: WorkerConfig): Promise<Sequelize> {
  const poolSize = [slotsOf(config), SYNC_SLOTS].reduce(
    (sum, { activities, localActivities }) => sum + activities + localActivities,
    0,
  );
  const sequelize = createSequelize(config.databaseUrl, poolSize);
  onEveryStatement(
    sequelize,
    statementCounter(() => currentActivityType()),
  );
  await migrateUp(sequelize, config.databaseUrl);
  return sequelize;
}

/** The pipeline's activities, and the reconciler's (the batch use case's, not a pipeline step). */
export function workerActivities(sequelize: Sequelize, logger: Logger, config: WorkerConfig) {
  const webhooks = { allowedHosts: config.webhookAllowedHosts, retrySeconds: config.webhookRetrySeconds };
  return {
    ...pipelineActivities(sequelize, logger, config),
    startStrandedBatches: withHeartbeat(
      startStrandedBatches({ sequelize, logger, webhooks, localMaxEvents: config.pipelineLocalMaxEvents }),
    ),
  };
}

/**
 * One connection's workers, of the task queue and of its sync queue, once the search attributes are
 * there; then the reconciler is given this worker's settings (Temporal is reachable by now).
 */
export async function createWorkers(
  connection: NativeConnection,
  config: WorkerConfig,
  activities: object,
  logger: Logger,
): Promise<Worker[]> {
  await ensureSearchAttributes(connection, config.temporalNamespace, logger);
  const workers = await Promise.all([
    createPipelineWorker(connection, config, config.taskQueue, activities, slotsOf(config)),
    createPipelineWorker(connection, config, syncTaskQueueOf(config.taskQueue), activities, SYNC_SLOTS),
  ]);
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
  return workers;
}
