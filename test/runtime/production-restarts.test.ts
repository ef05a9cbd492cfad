import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../platform/config';
import { Connection } from '@temporalio/client';
import { exitOf, stopChild } from '../../supervisor/child-process';
import { createLogger } from '../../platform/logger';
import { freePort, waitFor } from '../../platform/net';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../supervisor/postgres';
import { startTemporalDevServer, type DevServer } from '../../supervisor/temporal';
import { typescriptCommand } from '../helpers/stack';

/**
 * `npm run api` and `npm run worker` alone, as in production: nobody restarts them, so they must ride
 * out their PostgreSQL and Temporal going away and coming back on the same address by themselves.
 */
describe('the API and the worker without a supervisor', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'production-shape-'));
  const logger = createLogger('warn', 'test');
  let pg: EmbeddedPostgres | undefined;
  let temporal: DevServer | undefined;
  let temporalPort: number;
  const roles: Record<string, { child: ChildProcess; output: () => string }> = {};

  const startTemporal = () =>
    startTemporalDevServer({
      cliPath: process.env.TEMPORAL_CLI_PATH,
      port: temporalPort,
      uiPort: null,
      namespace: 'default',
      dbFile: path.join(dir, 'temporal.db'),
    });

  function run(role: 'api' | 'worker', env: NodeJS.ProcessEnv): void {
    const child = spawn(...typescriptCommand(`${role}/main.ts`), {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        ...env,
        PORT: '0',
        WORKER_METRICS_PORT: '0',
        WORKER_APP_METRICS_PORT: '0',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
        // A beat a second: /readyz and the worker's watchdog tell a silent worker in 4 s, not 20.
        WORKER_HEARTBEAT_SECONDS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    roles[role] = { child, output: () => output };
  }
  const apiUrl = () =>
    JSON.parse(
      roles.api
        .output()
        .split('\n')
        .find((line) => line.includes('"API listening"'))!,
    ).url as string;
  /** The heartbeats Temporal holds of the pipeline task queue's workers (none while it cannot answer). */
  let temporalClient: Connection | undefined;
  const heartbeats = async () => {
    temporalClient ??= Connection.lazy({ address: temporal!.address });
    const { workersInfo } = await temporalClient.workflowService
      .listWorkers({ namespace: 'default', query: 'TaskQueue = "traceability"' })
      .catch(() => ({ workersInfo: [] }));
    return (workersInfo ?? []).map(({ workerHeartbeat: beat }) => ({
      identity: beat?.workerIdentity,
      status: beat?.status,
      ageMs: Date.now() - Number(beat?.heartbeatTime?.seconds ?? 0) * 1000,
    }));
  };
  /** /readyz answers 200; within `timeoutMs` if given, as an orchestrator's probe with its deadline asks. */
  const ready = async (timeoutMs?: number) =>
    (
      await fetch(`${apiUrl()}/readyz`, { signal: timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined }).catch(
        () => undefined,
      )
    )?.status === 200;

  beforeAll(async () => {
    fs.chmodSync(dir, 0o755);
    pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), logger, durable: false });
    temporalPort = await freePort();
  }, 120_000);

  afterAll(async () => {
    await temporalClient?.close();
    for (const { child } of Object.values(roles)) await stopChild(child, 'SIGKILL', 1000);
    await temporal?.stop();
    await pg?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('the worker started before Temporal waits for it instead of exiting', async () => {
    run('worker', { DATABASE_URL: pg!.url, TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}` });
    await waitFor('the worker to retry', 60_000, async () =>
      roles.worker.output().includes('worker failed; a new connection and worker in'),
    );
    expect(roles.worker.child.exitCode).toBeNull();

    temporal = await startTemporal();
    await waitFor('the worker to run', 90_000, async () => roles.worker.output().includes('"worker running"'));
  }, 180_000);

  it('the API answers again after PostgreSQL and Temporal were killed and came back on the same ports', async () => {
    run('api', { DATABASE_URL: pg!.url, TEMPORAL_ADDRESS: temporal!.address });
    await waitFor('the API', 90_000, async () => roles.api.output().includes('"API listening"') && (await ready()));

    const port = pg!.port;
    process.kill(pg!.process.pid!, 'SIGKILL');
    process.kill(temporal!.process.pid!, 'SIGKILL');
    await Promise.all([exitOf(pg!.process), exitOf(temporal!.process)]);
    // Not ready, and said so in the checks' 3 s (8 s here, for a loaded machine): the Temporal checks stop
    // at their deadline instead of retrying the connection for about 19 s.
    const answer = await fetch(`${apiUrl()}/readyz`, { signal: AbortSignal.timeout(8000) });
    expect(answer.status).toBe(503);
    const { checks } = (await answer.json()) as { checks: Record<string, string> };
    for (const check of ['database', 'temporal', 'worker', 'interactiveWorker', 'deliveries'])
      expect(checks[check]).not.toBe('ok');

    await waitFor('PostgreSQL to start again', 60_000, async () => {
      pg = await startEmbeddedPostgres({
        dataDir: path.join(dir, 'pg'),
        port,
        logger,
        durable: false,
        existing: true,
      }).catch(() => pg);
      return pg!.process.exitCode === null && pg!.process.signalCode === null;
    });
    temporal = await startTemporal();
    await waitFor('the API to be ready again', 60_000, () => ready());

    for (const role of ['api', 'worker']) expect(roles[role].child.exitCode).toBeNull();
    expect(roles.worker.output()).not.toMatch(/"worker stopped"/);
  }, 240_000);

  it('/readyz names the worker missing within a few beats of its SIGKILL (its heartbeats stop), and ok once a new one runs', async () => {
    const checks = async () =>
      ((await (await fetch(`${apiUrl()}/readyz`)).json()) as { checks: { worker: string } }).checks;
    await waitFor('the API to be ready', 60_000, () => ready());
    const old = roles.worker;
    const pid = old.child.pid!; // the worker itself: a SIGKILL leaves it no time to say goodbye
    // Its heartbeats reach the Temporal that came back: the SDK can stop sending them on a connection
    // across a restart, and the worker then starts again on a new one (worker/main.ts, heartbeatsLost).
    await waitFor("the worker's heartbeats to reach Temporal again", 60_000, async () =>
      (await heartbeats()).some((beat) => beat.identity === `${pid}@${os.hostname()} all` && beat.ageMs < 10_000),
    );
    if (old.output().includes('no heartbeat of this worker'))
      console.log('the worker started again on a new connection: its heartbeats were lost across the restart');
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    await waitFor(
      '/readyz to name the worker missing',
      30_000,
      async () => (await checks()).worker === 'missing',
    ).catch(async (error: Error) => {
      // Why not: what /readyz said last, and the worker's own lines (the SDK's retries left out).
      const lines = old
        .output()
        .split('\n')
        .filter((line) => !/ retried \d+ times /.test(line));
      const beats = await heartbeats();
      const readyz = await checks().catch((e: Error) => e.message);
      throw new Error(
        `${error.message}\n/readyz: ${JSON.stringify(readyz)}\nkilled: ${pid}; heartbeats: ${JSON.stringify(beats)}\n` +
          `The worker's lines:\n${lines.slice(-60).join('\n')}`,
      );
    });
    console.log(`dead worker seen by /readyz after ${Date.now() - killedAt} ms`);
    await stopChild(old.child, 'SIGKILL', 1000);

    run('worker', { DATABASE_URL: pg!.url, TEMPORAL_ADDRESS: temporal!.address });
    await waitFor('a new worker to be seen', 60_000, () => ready());
  }, 180_000);

  it('both stop within a few seconds of SIGTERM', async () => {
    const started = Date.now();
    const stopped = await Promise.all(Object.values(roles).map(({ child }) => stopChild(child, 'SIGTERM', 10_000)));
    expect(stopped).toEqual([true, true]);
    expect(Date.now() - started).toBeLessThan(6000);
  }, 30_000);
});
