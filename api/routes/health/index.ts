import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import type { AppCustom, AppState } from '../../context';
import { problem } from '../../errors';

/**
 * A live worker long-polls the task queue again within about a minute even when idle (the server
 * answers an empty poll after 60 s), so a poller not seen for longer than this is gone.
 */
export const WORKER_STALE_SECONDS = 75;

const { TASK_QUEUE_TYPE_WORKFLOW, TASK_QUEUE_TYPE_ACTIVITY } = proto.api.enums.v1.TaskQueueType;

/** `ok` when a worker polls both the workflow and the activity side of the task queue lately. */
async function workerCheck(temporal: Client, taskQueue: string): Promise<string> {
  const now = Date.now();
  const sides = await Promise.all(
    [TASK_QUEUE_TYPE_WORKFLOW, TASK_QUEUE_TYPE_ACTIVITY].map(async (taskQueueType) => {
      const { pollers } = await temporal.workflowService.describeTaskQueue({ namespace: temporal.options.namespace, taskQueue: { name: taskQueue }, taskQueueType });
      return (pollers ?? []).some((p) => now - Number(p.lastAccessTime?.seconds ?? 0) * 1000 < WORKER_STALE_SECONDS * 1000);
    }),
  );
  return sides.every(Boolean) ? 'ok' : 'missing';
}

/** Unauthenticated: process liveness, and readiness of what the API needs to process batches. */
export function healthRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    const { sequelize, temporal, config } = ctx.deps;
    const failed = (e: Error) => e.message;
    const [database, temporalServer, worker] = await Promise.all([
      sequelize.query('SELECT 1').then(() => 'ok', failed),
      temporal.connection.workflowService.getSystemInfo({}).then(() => 'ok', failed),
      workerCheck(temporal, config.taskQueue).catch(failed),
    ]);
    const checks = { database, temporal: temporalServer, worker };
    if (Object.values(checks).some((check) => check !== 'ok')) throw problem(503, 'The service is not ready.', { checks });
    ctx.body = { status: 'ok', checks };
  });

  return router;
}
