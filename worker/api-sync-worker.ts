import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Sequelize } from 'sequelize';
import { type Config } from '../platform/config';
import { syncTaskQueueOf } from '../domain/task-queues';
import type { Logger } from '../platform/logger';
import { currentActivityType } from './activity-metrics';
import { createPipelineWorker, installRuntime, pipelineActivities } from './pipeline-worker';

// Steps of small sync batches side by side, each holding one connection of the API's pool.
const LOCAL_ACTIVITY_SLOTS = 4;

/** The API's statements by step: an activity's type inside one of its worker's steps, `request` otherwise. */
export const apiStatementStep = (): string => currentActivityType('request');

/**
 * The API's own worker (API_SYNC_WORKER): it polls only the sync task queue and runs the workflows the
 * API starts there eagerly (batches/batch-workflow.ts), their steps as local activities on the API's own
 * pool: one pool per process, since the models are bound to the last one made. Should it stop, those
 * batches wait in the sync task queue for `npm run worker`, which polls it too; a crash of the API
 * mid-batch is the workflow task's timeout, after which that worker runs it.
 */
export async function startApiSyncWorker(
  config: Config & { temporalAddress: string },
  logger: Logger,
  sequelize: Sequelize,
) {
  // The API stops on its own signals (api/main.ts), and stops this worker after its requests.
  installRuntime(logger, config, { shutdownSignals: [] });
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  let worker: Worker;
  try {
    worker = await createPipelineWorker(
      connection,
      config,
      syncTaskQueueOf(config.taskQueue),
      pipelineActivities(sequelize, logger, config),
      { activities: 0, localActivities: LOCAL_ACTIVITY_SLOTS },
      'api',
    );
  } catch (error) {
    await connection.close();
    throw error;
  }
  let stopping = false;
  const running = worker.run().then(
    () => {
      if (!stopping) logger.error('the API sync worker stopped: small sync batches now wait for npm run worker');
    },
    (error: unknown) =>
      logger.error({ err: error }, 'the API sync worker failed: small sync batches now wait for npm run worker'),
  );
  return {
    /**
     * The API's client must be on this connection: Temporal hands an eager start's task to the worker on
     * the starting connection. The API closes it, after stop().
     */
    connection,
    async stop(): Promise<void> {
      stopping = true;
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    },
  };
}
