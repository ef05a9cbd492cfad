import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { readLiveState, type RuntimeState } from '../../supervisor/state';
import { waitFor } from '../../platform/net';
import { commission, instance, uid } from '../factories/events';
import { cli, pointedAt } from '../helpers/cli';
import { startStack, type Stack } from '../helpers/stack';

/**
 * `npm start` keeps its PostgreSQL and Temporal dev server alive: one killed with SIGKILL comes back on
 * the same port, and the API and the worker (never restarted themselves) carry on against it.
 */
describe('the supervisor heals PostgreSQL and Temporal', () => {
  let stack: Stack;
  let key: string;
  let before: RuntimeState;

  const state = (): RuntimeState => {
    const live = readLiveState(stack.dir);
    if (!live) throw new Error('the supervisor is gone');
    return live;
  };
  const log = () => fs.readFileSync(path.join(stack.dir, 'stack.log'), 'utf8');
  /**
   * The API's and the worker's pids, and why either was restarted, should it have been: the supervisor's
   * line for it, and whatever a process printed outside the log's JSON (a crash's stack trace).
   */
  const children = () => {
    const { apiPid, workerPid, interactiveWorkerPid } = state();
    const restarts = log()
      .split('\n')
      .filter(
        (line) =>
          /(api|worker|interactiveWorker) exited; restarting it/.test(line) || (line.trim() && !line.startsWith('{')),
      );
    return { api: apiPid, worker: workerPid, interactiveWorker: interactiveWorkerPid, restarts: restarts.slice(-40) };
  };
  const call = (method: string, route: string, body?: unknown) =>
    fetch(`${before.apiUrl}${route}`, {
      method,
      headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
  const syncBatch = () =>
    call('POST', '/Integration/Events', {
      Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 10))],
    });

  beforeAll(async () => {
    // Durable, as `npm start` runs it: without fsync and synchronous commits a SIGKILL loses the last
    // commits (under load, the key this test made), and the API then rightly answers 401.
    stack = await startStack({ EMBEDDED_PG_DURABLE: 'true' });
    before = stack.state;
    const created = cli('cli/apikey.ts', ['create', '--account', 'healing'], pointedAt(stack.dir));
    if (created.status !== 0) throw new Error(created.stderr);
    key = created.stdout.trim();
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    if (stack && !process.env.KEEP_TEST_STACK) fs.rmSync(stack.dir, { recursive: true, force: true });
  }, 60_000);

  it('publishes the pids of PostgreSQL and Temporal in runtime.json', () => {
    for (const pid of [before.postgresPid, before.temporalPid]) {
      expect(pid).toEqual(expect.any(Number));
      expect(() => process.kill(pid!, 0)).not.toThrow();
    }
  });

  it('PostgreSQL killed with SIGKILL, with sessions open, is back on the same port; the API answers again', async () => {
    expect((await syncBatch()).status).toBe(200); // the API's and the worker's pools hold connections now
    const killedAt = Date.now();
    process.kill(before.postgresPid!, 'SIGKILL');

    await waitFor('a new PostgreSQL in runtime.json', 60_000, async () => state().postgresPid !== before.postgresPid);
    let status = 0;
    const seen: number[] = [];
    await waitFor('the API to answer from the database again', 60_000, async () => {
      status = (await call('GET', '/Integration/Account').catch(() => undefined))?.status ?? 0;
      seen.push(status);
      return status === 200;
    });
    // Meanwhile the API says the database is away (503, send again), never an unexpected 500.
    expect(seen.filter((s) => s >= 500 && s !== 503)).toEqual([]);
    console.log(`PostgreSQL: API answering again ${Date.now() - killedAt} ms after SIGKILL`);
    expect((await syncBatch()).status).toBe(200);

    expect(state().databaseUrl).toBe(before.databaseUrl);
    expect(children()).toEqual({
      api: before.apiPid,
      worker: before.workerPid,
      interactiveWorker: before.interactiveWorkerPid,
      restarts: [],
    });
    expect(log()).toMatch(/PostgreSQL exited unexpectedly; restarting it/);
    expect(log()).toMatch(/PostgreSQL restarted \(attempt \d+, down \d+ ms\)/);
  }, 180_000);

  it('Temporal killed with SIGKILL is back on the same port with its history; the worker carries on', async () => {
    const connection = await Connection.connect({ address: before.temporalAddress });
    const client = new Client({ connection });
    try {
      const { count: total } = await client.workflow.count('WorkflowType = "processEventBatch"');
      expect(total).toBeGreaterThan(0);
      const temporalPid = state().temporalPid!;
      const killedAt = Date.now();
      process.kill(temporalPid, 'SIGKILL');

      await waitFor('a new Temporal in runtime.json', 90_000, async () => state().temporalPid !== temporalPid);
      let response: Response | undefined;
      await waitFor('a batch to go through the pipeline again', 120_000, async () => {
        response = await syncBatch().catch(() => undefined);
        return response?.status === 200;
      });
      console.log(`Temporal: a batch completes again ${Date.now() - killedAt} ms after SIGKILL`);

      // The same address, and the history written before the kill is still there.
      expect(state().temporalAddress).toBe(before.temporalAddress);
      const { count: now } = await client.workflow.count('WorkflowType = "processEventBatch"');
      expect(now).toBeGreaterThan(total);
      expect(children()).toEqual({
        api: before.apiPid,
        worker: before.workerPid,
        interactiveWorker: before.interactiveWorkerPid,
        restarts: [],
      });
      expect(log()).toMatch(/Temporal restarted \(attempt \d+, down \d+ ms\)/);
    } finally {
      await connection.close();
    }
  }, 300_000);
});
