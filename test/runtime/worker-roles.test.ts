import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { BULK_WORKER_NICENESS, PROJECT_ROOT, TASK_QUEUE } from '../../platform/config';
import { deliveriesTaskQueueOf, syncTaskQueueOf } from '../../domain/task-queues';
import { waitFor } from '../../platform/net';
import { stopChild } from '../../supervisor/child-process';
import { readLiveState, type RuntimeState } from '../../supervisor/state';
import { typescriptCommand } from '../helpers/stack';

const { TASK_QUEUE_TYPE_WORKFLOW, TASK_QUEUE_TYPE_ACTIVITY } = proto.api.enums.v1.TaskQueueType;

/** The niceness of every thread of a process (field 19 of each thread's stat). */
function threadNiceness(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((thread) => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

/**
 * `npm start` runs two worker processes (WORKER_ROLE): the interactive one polls only the sync task
 * queue, the bulk one the task queue and the deliveries' task queue, at a lower priority; the Temporal UI tells them apart by
 * their identities, and /readyz checks each.
 */
describe('the interactive and the bulk worker', () => {
  let connection: Connection;
  const state = (): RuntimeState => readLiveState(process.env.STACK_DIR!)!;
  beforeAll(async () => {
    connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });
  });
  afterAll(() => connection.close());

  /** The identities polling a task queue's workflow and activity sides. */
  async function pollers(taskQueue: string): Promise<{ workflow: string[]; activity: string[] }> {
    const side = async (taskQueueType: proto.api.enums.v1.TaskQueueType) => {
      const { pollers } = await connection.workflowService.describeTaskQueue({
        namespace: 'default',
        taskQueue: { name: taskQueue },
        taskQueueType,
      });
      return (pollers ?? []).map((poller) => poller.identity ?? '').sort();
    };
    return { workflow: await side(TASK_QUEUE_TYPE_WORKFLOW), activity: await side(TASK_QUEUE_TYPE_ACTIVITY) };
  }

  it('poll each their own task queue, named by their role', async () => {
    const { workerPid, interactiveWorkerPid, apiPid } = state();
    const [bulk, interactive, api] = [
      `${workerPid}@${os.hostname()} bulk`,
      `${interactiveWorkerPid}@${os.hostname()} interactive`,
      `${apiPid}@${os.hostname()} api`,
    ];
    expect(interactiveWorkerPid).not.toBe(workerPid);
    // Pollers show once they have polled; an idle worker polls again within a minute.
    await waitFor('both workers and the API to poll their queues', 20_000, async () => {
      const [queue, sync, deliveries] = await Promise.all([
        pollers(TASK_QUEUE),
        pollers(syncTaskQueueOf(TASK_QUEUE)),
        pollers(deliveriesTaskQueueOf(TASK_QUEUE)),
      ]);
      return (
        queue.workflow.includes(bulk) &&
        queue.activity.includes(bulk) &&
        deliveries.workflow.includes(bulk) &&
        deliveries.activity.includes(bulk) &&
        sync.workflow.includes(interactive) &&
        sync.activity.includes(interactive) &&
        sync.workflow.includes(api)
      );
    });
    const [queue, sync, deliveries] = await Promise.all([
      pollers(TASK_QUEUE),
      pollers(syncTaskQueueOf(TASK_QUEUE)),
      pollers(deliveriesTaskQueueOf(TASK_QUEUE)),
    ]);
    for (const side of [queue.workflow, queue.activity, deliveries.workflow, deliveries.activity])
      expect(side).not.toContain(interactive);
    for (const side of [sync.workflow, sync.activity]) expect(side).not.toContain(bulk);
  });

  it('run the bulk worker, every thread of it, at a lower priority than the interactive one', () => {
    const { workerPid, interactiveWorkerPid } = state();
    expect(new Set(threadNiceness(workerPid!))).toEqual(new Set([BULK_WORKER_NICENESS]));
    expect(new Set(threadNiceness(interactiveWorkerPid!))).toEqual(new Set([0]));
  });

  describe('/readyz', () => {
    // An API and workers of their own task queue, beside the stack's, as `npm run api` and `npm run worker` run them.
    const taskQueue = `roles-${randomUUID().slice(0, 8)}`;
    const children: ChildProcess[] = [];
    afterAll(() => Promise.all(children.map((child) => stopChild(child, 'SIGTERM', 5000))));

    function run(entry: string, env: NodeJS.ProcessEnv): Promise<{ port?: number; child: ChildProcess }> {
      const child = spawn(...typescriptCommand(entry), {
        cwd: PROJECT_ROOT,
        env: {
          ...process.env,
          TASK_QUEUE: taskQueue,
          PORT: '0',
          WORKER_METRICS_PORT: '0',
          WORKER_APP_METRICS_PORT: '0',
          LOG_LEVEL: 'warn',
          // A killed worker is missing after 4 beats: 4 s.
          WORKER_HEARTBEAT_SECONDS: '1',
          ...env,
        },
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      children.push(child);
      return new Promise((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`${entry} exited with code ${code}`)));
        child.on('message', (message: { type?: string; port?: number }) => {
          if (message.type === 'ready') resolve({ ...message, child });
        });
      });
    }
    const readyz = async (url: string) => {
      const response = await fetch(`${url}/readyz`);
      return {
        status: response.status,
        checks: ((await response.json()) as { checks: Record<string, string> }).checks,
      };
    };

    it('names each worker missing that is not there: the interactive one (the API’s own not counted), then the bulk one and the deliveries it polls', async () => {
      const [{ port }, bulk] = await Promise.all([
        run('api/main.ts', {}),
        run('worker/main.ts', { WORKER_ROLE: 'bulk' }),
      ]);
      const url = `http://127.0.0.1:${port}`;
      // The bulk worker polls its task queue and the deliveries' with a worker each: seen one after the other.
      await waitFor('the bulk worker and its deliveries to be seen', 30_000, async () => {
        const { checks } = await readyz(url);
        return checks.worker === 'ok' && checks.deliveries === 'ok';
      });
      expect(await readyz(url)).toEqual({
        status: 503,
        checks: { database: 'ok', temporal: 'ok', worker: 'ok', interactiveWorker: 'missing', deliveries: 'ok' },
      });

      await run('worker/main.ts', { WORKER_ROLE: 'interactive' });
      await waitFor('the interactive worker to be seen', 30_000, async () => (await readyz(url)).status === 200);
      expect((await readyz(url)).checks).toEqual({
        database: 'ok',
        temporal: 'ok',
        worker: 'ok',
        interactiveWorker: 'ok',
        deliveries: 'ok',
      });

      bulk.child.kill('SIGKILL');
      await waitFor('the bulk worker to be missed', 30_000, async () => (await readyz(url)).checks.worker !== 'ok');
      await waitFor('its deliveries to be missed', 10_000, async () => (await readyz(url)).checks.deliveries !== 'ok');
      expect(await readyz(url)).toEqual({
        status: 503,
        checks: { database: 'ok', temporal: 'ok', worker: 'missing', interactiveWorker: 'ok', deliveries: 'missing' },
      });
    }, 120_000);
  });
});
