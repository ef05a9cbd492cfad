import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { heartbeatStaleSeconds, isApiWorkerIdentity, type Config } from '../../../platform/config';
import { deliveriesTaskQueueOf, syncTaskQueueOf } from '../../../domain/task-queues';
import type { AppCustom, AppState } from '../../context';
import { problem } from '../../errors';

/**
 * A live worker long-polls the task queue again within about a minute even when idle (the server
 * answers an empty poll after 60 s), so a poller not seen for longer than this is gone.
 */
const WORKER_STALE_SECONDS = 75;

const { TASK_QUEUE_TYPE_WORKFLOW, TASK_QUEUE_TYPE_ACTIVITY } = proto.api.enums.v1.TaskQueueType;
const { WORKER_STATUS_RUNNING } = proto.api.enums.v1.WorkerStatus;

const msOf = (time: { seconds?: Long | number | null } | null | undefined) => Number(time?.seconds ?? 0) * 1000;

/** The API's own worker on the sync task queue is no worker process: it runs only the batches its API starts. */
const workerProcess = (identity: string | null | undefined): boolean => !isApiWorkerIdentity(identity ?? '');

/**
 * The task queue's worker processes as their heartbeats tell (worker/main.ts sends one every few
 * seconds): `ok` when one runs and beat lately. Undefined when the server keeps no heartbeats (the feature
 * off, or a server too old for it): the poller check answers then.
 */
async function heartbeatCheck(
  temporal: Client,
  taskQueue: string,
  staleMs: number,
  now: number,
): Promise<'ok' | 'missing' | undefined> {
  const workers = await temporal.workflowService
    .listWorkers({
      namespace: temporal.options.namespace,
      pageSize: 1000,
      query: `TaskQueue = ${JSON.stringify(taskQueue)}`,
    })
    .then(
      (response) => response.workersInfo ?? [],
      () => [],
    );
  const beats = workers.flatMap(({ workerHeartbeat: beat }) =>
    beat && workerProcess(beat.workerIdentity) ? [beat] : [],
  );
  if (!beats.length) return undefined;
  return beats.some((beat) => beat.status === WORKER_STATUS_RUNNING && now - msOf(beat.heartbeatTime) < staleMs)
    ? 'ok'
    : 'missing';
}

/**
 * `ok` when a worker process of the task queue is alive: by its heartbeats where the server keeps them (a worker
 * killed shows within 4 beats: 20 s by default), else by its polls of both the workflow and the activity side (75 s).
 */
async function workerCheck(
  temporal: Client,
  config: Pick<Config, 'workerHeartbeatSeconds'>,
  taskQueue: string,
): Promise<string> {
  const now = Date.now();
  const byHeartbeat = await heartbeatCheck(temporal, taskQueue, heartbeatStaleSeconds(config) * 1000, now);
  if (byHeartbeat) return byHeartbeat;
  const sides = await Promise.all(
    [TASK_QUEUE_TYPE_WORKFLOW, TASK_QUEUE_TYPE_ACTIVITY].map(async (taskQueueType) => {
      const { pollers } = await temporal.workflowService.describeTaskQueue({
        namespace: temporal.options.namespace,
        taskQueue: { name: taskQueue },
        taskQueueType,
      });
      return (pollers ?? []).some(
        (p) => workerProcess(p.identity) && now - msOf(p.lastAccessTime) < WORKER_STALE_SECONDS * 1000,
      );
    }),
  );
  return sides.every(Boolean) ? 'ok' : 'missing';
}

/**
 * How long /readyz waits for its checks. A Temporal that is down is otherwise retried for about 19 s
 * before its check fails; a busy but healthy machine answers well within this.
 */
const READY_CHECK_MS = 3000;

/** The check's own answer, or the fact that it did not answer within READY_CHECK_MS. */
const withinDeadline = (check: Promise<string>, deadline: number): Promise<string> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(`no answer within ${READY_CHECK_MS} ms`), deadline - Date.now());
    void check.then(resolve).finally(() => clearTimeout(timer));
  });

/** Unauthenticated: process liveness, and readiness of what the API needs to process batches. */
export function healthRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    const { sequelize, temporal, config } = ctx.deps;
    const failed = (e: Error) => e.message;
    const deadline = Date.now() + READY_CHECK_MS;
    const answer = (check: Promise<string>) => withinDeadline(check.catch(failed), deadline);
    // The Temporal calls stop at the deadline too, rather than retrying behind the answer.
    const temporalCall = (call: () => Promise<string>) => answer(temporal.withDeadline(deadline, call));
    const [database, temporalServer, worker, interactiveWorker, deliveries] = await Promise.all([
      answer(sequelize.query('SELECT 1').then(() => 'ok')),
      temporalCall(() => temporal.connection.workflowService.getSystemInfo({}).then(() => 'ok')),
      temporalCall(() => workerCheck(temporal, config, config.taskQueue)),
      temporalCall(() => workerCheck(temporal, config, syncTaskQueueOf(config.taskQueue))),
      temporalCall(() => workerCheck(temporal, config, deliveriesTaskQueueOf(config.taskQueue))),
    ]);
    const checks = { database, temporal: temporalServer, worker, interactiveWorker, deliveries };
    if (Object.values(checks).some((check) => check !== 'ok')) throw problem('not-ready', { checks });
    ctx.body = { status: 'ok', checks };
  });

  return router;
}
