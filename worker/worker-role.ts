import fs from 'node:fs';
import os from 'node:os';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { Sequelize } from 'sequelize';
import { withHeartbeat } from '../activities/heartbeat';
import { ensureReconciler } from '../batches/reconciler';
import { startStrandedBatches } from '../batches/start-stranded-batches';
import { migrateUp } from '../db/migrate';
import { createSequelize } from '../db/sequelize';
import { onEveryStatement } from '../db/sql';
import type { Config } from '../platform/config';
import { deliveriesTaskQueueOf, syncTaskQueueOf } from '../domain/task-queues';
import type { Logger } from '../platform/logger';
import { statementCounter } from '../platform/metrics';
import { ensureSearchAttributes } from '../platform/search-attributes';
import { connectTemporalClient } from '../platform/temporal-client';
import { currentActivityType } from './activity-metrics';
import { createPipelineWorker, pipelineActivities, type WorkerSlots } from './pipeline-worker';

/** What `npm run worker` runs, piece by piece: worker/main.ts wires them together. */
type WorkerConfig = Config & { databaseUrl: string; temporalAddress: string };

// The sync task queue's share in a worker of role `all`, for small sync batches the API's own worker did not take.
const SYNC_SLOTS: WorkerSlots = { activities: 2, localActivities: 2 };

/**
 * A webhook delivery waits on its receiver (up to 10 s) and holds no connection meanwhile: many at once
 * cost little CPU. On the bulk queue's few slots, a recall's 99 notices waited ~3.5 s each for a slot.
 * Local: the deliveries' bookkeeping reads.
 */
const DELIVERY_SLOTS: WorkerSlots = { activities: 16, localActivities: 4 };
/**
 * A delivery takes a connection for two short statements (what is owed, the attempt's row), never across
 * its POST: a few serve all 20 slots, and a pool of one per slot would take 20 of PostgreSQL's 100 default
 * connections from a worker.
 */
const DELIVERY_CONNECTIONS = 4;

/**
 * A batch's steps run as local activities (PIPELINE_LOCAL_MAX_EVENTS) or as activity tasks: either way
 * as many at once as WORKER_ACTIVITY_SLOTS says, since a 500-event step keeps a core busy.
 */
const slotsOf = (config: WorkerConfig): WorkerSlots => ({
  activities: config.workerActivitySlots,
  localActivities: config.workerActivitySlots,
});

/**
 * The task queues a worker of this role polls, its slots on each (WORKER_ROLE), and the connections they
 * need: one a slot (each running step holds its transaction), but for deliveries.
 */
export function queuesOf(config: WorkerConfig): { taskQueue: string; slots: WorkerSlots; connections?: number }[] {
  const bulk = { taskQueue: config.taskQueue, slots: slotsOf(config) };
  const deliveries = {
    taskQueue: deliveriesTaskQueueOf(config.taskQueue),
    slots: DELIVERY_SLOTS,
    connections: DELIVERY_CONNECTIONS,
  };
  const sync = syncTaskQueueOf(config.taskQueue);
  if (config.workerRole === 'bulk') return [bulk, deliveries];
  if (config.workerRole === 'interactive') return [{ taskQueue: sync, slots: slotsOf(config) }];
  return [bulk, { taskQueue: sync, slots: SYNC_SLOTS }, deliveries];
}

/** The worker's pool, the connections its task queues need, its statements counted by step; migrated. */
export async function workerDatabase(config: WorkerConfig): Promise<Sequelize> {
  const poolSize = queuesOf(config).reduce(
    (sum, { slots: { activities, localActivities }, connections }) =>
      sum + (connections ?? activities + localActivities),
    0,
  );
  const sequelize = createSequelize(config.databaseUrl, poolSize);
  onEveryStatement(sequelize, statementCounter(currentActivityType));
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
 * One connection's workers, one per task queue of the role, once the search attributes are there; then,
 * where the role polls the task queue, the reconciler is given this worker's settings (Temporal is
 * reachable by now).
 */
export async function createWorkers(
  connection: NativeConnection,
  config: WorkerConfig,
  activities: object,
  logger: Logger,
): Promise<Worker[]> {
  await ensureSearchAttributes(connection, config.temporalNamespace, logger);
  const queues = queuesOf(config);
  const workers = await Promise.all(
    queues.map(({ taskQueue, slots }) =>
      createPipelineWorker(connection, config, taskQueue, activities, slots, config.workerRole),
    ),
  );
  if (!queues.some(({ taskQueue }) => taskQueue === config.taskQueue)) return workers;
  const client = await connectTemporalClient(config.temporalAddress, config.temporalNamespace);
  try {
    await ensureReconciler(client, config.taskQueue, {
      olderThanSeconds: config.reconcileAfterSeconds,
      everySeconds: config.reconcileEverySeconds,
    });
  } finally {
    await client.connection.close();
  }
  return workers;
}

/**
 * Gives this process the bulk role's niceness (BULK_WORKER_NICENESS), every thread of it: Linux keeps a
 * niceness per thread, and a thread takes its creator's, so the threads already running (V8's, libuv's)
 * are set one by one and those made later (the SDK's core, the workflow threads) follow. Where there is no
 * /proc, the calling thread's. A niceness can always be raised without privileges.
 */
export function lowerPriority(niceness: number): void {
  let threads: number[] = [0];
  try {
    threads = fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    // no /proc: this thread only
  }
  for (const thread of threads) {
    try {
      os.setPriority(thread, Math.max(niceness, os.getPriority(thread)));
    } catch (error) {
      // A thread that ended since the listing has nothing left to lower.
      if ((error as { info?: { code?: string } }).info?.code !== 'ESRCH') throw error;
    }
  }
}
