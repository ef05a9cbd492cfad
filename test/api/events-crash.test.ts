import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection, ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import { Pool } from 'pg';
import type { Sequelize } from 'sequelize';
import { createApiKey } from '../../db/repositories/accounts';
import { createSequelize } from '../../db/sequelize';
import { TASK_QUEUE } from '../../platform/config';
import { waitFor } from '../../platform/net';
import { readLiveState, type RuntimeState } from '../../supervisor/state';
import { epcisDocument, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { commission, instance, ship, uid } from '../factories/events';
import { cli, pointedAt } from '../helpers/cli';
import { startStack, type Stack } from '../helpers/stack';

/**
 * One stack of this file's own for the three parts below: killing the shared stack's worker, PostgreSQL or
 * Temporal (or stopping Temporal) would stall the other test files running beside this one. Its reconciler
 * runs every 2 s, so a batch Temporal could not start is picked up at once, and a few dozen seconds are
 * many passes. Durable, as `npm start` runs it: without fsync and synchronous commits a SIGKILL of
 * PostgreSQL loses the last commits (under load, the key the first part made), and the API then rightly
 * answers 401.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    RECONCILE_AFTER_SECONDS: '1',
    RECONCILE_EVERY_SECONDS: '2',
    EMBEDDED_PG_DURABLE: 'true',
  });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  if (stack && !process.env.KEEP_TEST_STACK) fs.rmSync(stack.dir, { recursive: true, force: true });
});

/**
 * `npm start` keeps its PostgreSQL and Temporal dev server alive: one killed with SIGKILL comes back on
 * the same port, and the API and the worker (never restarted themselves) carry on against it. First: the
 * parts after it kill the worker.
 */
describe('the supervisor heals PostgreSQL and Temporal', () => {
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

  beforeAll(() => {
    before = stack.state;
    const created = cli('cli/apikey.ts', ['create', '--account', 'healing'], pointedAt(stack.dir));
    if (created.status !== 0) throw new Error(created.stderr);
    key = created.stdout.trim();
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

/**
 * The reconciler as an operator sees it in the Temporal UI (issue 28): one long-running workflow, not a
 * new workflow in the list for every pass between the batches. Before the imports further down, which add
 * workflows to the list it counts.
 */
describe('the reconciler in the Temporal UI', () => {
  let connection: Connection;
  let temporal: Client;

  beforeAll(async () => {
    connection = await Connection.connect({ address: stack.state.temporalAddress });
    temporal = new Client({ connection });
  });

  afterAll(async () => {
    await connection?.close();
  });

  /** Every workflow execution the UI's list shows that is not a batch. */
  async function housekeepingRows(): Promise<{ workflowId: string; status: string }[]> {
    const rows = [];
    for await (const execution of temporal.workflow.list({ query: 'WorkflowType != "processEventBatch"' }))
      rows.push({ workflowId: execution.workflowId, status: execution.status.name });
    return rows;
  }

  /** How many passes the reconciler's current run has made (one activity each). */
  async function passes(): Promise<number> {
    const { events } = await temporal.workflow.getHandle('reconcile-batches').fetchHistory();
    return events!.filter((event) => event.activityTaskCompletedEventAttributes).length;
  }

  it('runs pass after pass as one workflow: one row in the list, not one per pass', async () => {
    // Five passes in one run's history (a pass every 2 s): a Schedule would have added a row for each by now.
    await waitFor('five passes of the reconciler', 90_000, async () => (await passes().catch(() => 0)) >= 5);
    expect(await housekeepingRows()).toEqual([{ workflowId: 'reconcile-batches', status: 'RUNNING' }]);
    const described = await temporal.workflow.getHandle('reconcile-batches').describe();
    expect(await described.staticSummary()).toMatch(/^Housekeeping \(not a batch\)/);
  }, 120_000);

  it('removes, at start-up, the reconcile-batches Schedule of an earlier version', async () => {
    // What the earlier worker created: a Schedule starting one reconcileBatches workflow per pass.
    await temporal.schedule.create({
      scheduleId: 'reconcile-batches',
      spec: { intervals: [{ every: '2s' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'reconcileBatches',
        workflowId: 'reconcile-batches',
        taskQueue: TASK_QUEUE,
        args: [{ olderThanSeconds: 1 }],
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
    const killed = stack.state.workerPid!;
    process.kill(killed, 'SIGKILL');
    await waitFor('the supervisor to start a new worker', 90_000, async () => {
      const pid = readLiveState(stack.dir)?.workerPid;
      return pid !== null && pid !== undefined && pid !== killed;
    });
    await waitFor('the new worker to delete the Schedule', 60_000, async () => {
      try {
        await temporal.schedule.getHandle('reconcile-batches').describe();
        return false;
      } catch (error) {
        if (error instanceof ScheduleNotFoundError) return true;
        throw error;
      }
    });
    // The Schedule's last runs (one pass each, on the new worker's code too) finish; the loop goes on.
    const running = async () => (await housekeepingRows()).filter((row) => row.status === 'RUNNING');
    await waitFor("the Schedule's last runs to finish", 30_000, async () => (await running()).length === 1);
    expect(await running()).toEqual([{ workflowId: 'reconcile-batches', status: 'RUNNING' }]);
  }, 180_000);
});

describe('a worker killed (SIGKILL) in the middle of a batch, and a Temporal that does not answer', () => {
  let sequelize: Sequelize;
  let pool: Pool;

  beforeAll(async () => {
    sequelize = createSequelize(stack.state.databaseUrl, 2);
    pool = new Pool({ connectionString: stack.state.databaseUrl, max: 2 });
  });

  afterAll(async () => {
    await pool?.end();
    await sequelize?.close();
  });

  /** Runs `task` while the Temporal dev server is stopped (SIGSTOP): a Temporal that does not answer. */
  async function whileTemporalFrozen<T>(task: () => Promise<T>): Promise<T> {
    const temporalPid = Number(
      execFileSync('pgrep', ['-P', String(stack.state.pid), '-f', 'server start-dev'])
        .toString()
        .trim()
        .split('\n')[0],
    );
    process.kill(temporalPid, 'SIGSTOP');
    try {
      return await task();
    } finally {
      process.kill(temporalPid, 'SIGCONT');
    }
  }

  /** The status `statusUrl` answers once it is Completed or Failed. */
  async function finalStatus(what: string, statusUrl: string, key: string): Promise<string> {
    let status = '';
    await waitFor(what, 90_000, async () => {
      const r = await fetch(`${stack.state.apiUrl}${statusUrl}`, { headers: { 'X-API-KEY': key } });
      status = ((await r.json()) as { status: string }).status;
      return status === 'Completed' || status === 'Failed';
    });
    return status;
  }

  it('lets the restarted worker finish every batch exactly once', async () => {
    const { key, account } = await createApiKey(uid('crash'), 'jest');
    const batches = Array.from({ length: 4 }, (_, b) => {
      const lots = Array.from({ length: 125 }, () => uid(`LOT${b}`));
      return [
        ...lots.map((lot) =>
          commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', lot, 10)),
        ),
        ...lots.map((lot) => ship({ location: 'DOCK', time: '2024-03-02T10:00:00Z' }, instance('SALMON', lot, 4))),
      ];
    });
    const killedPid = readLiveState(stack.dir)!.workerPid!;
    const responses = Promise.all(
      batches.map((events) =>
        fetch(`${stack.state.apiUrl}/Integration/Events`, {
          method: 'POST',
          headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' },
          body: JSON.stringify({ Events: events }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { result: { id: string }[] } })),
      ),
    );

    // Kill as soon as a batch is under way: its first step has run, the rest have not.
    for (let i = 0; i < 1000; i++) {
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM batches WHERE account_id = $1 AND status = 'Running'`,
        [account.id],
      );
      if (rows[0].n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    process.kill(killedPid, 'SIGKILL');

    const answered = await responses;
    expect(answered.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(answered.flatMap((r) => r.body.result)).toHaveLength(1000);
    expect(readLiveState(stack.dir)!.workerPid).not.toBe(killedPid);

    const count = async (query: string) => (await pool.query(query, [account.id])).rows[0].n as number;
    expect(await count('SELECT count(*)::int AS n FROM events WHERE account_id = $1')).toBe(1000);
    expect(await count('SELECT count(DISTINCT external_event_id)::int AS n FROM events WHERE account_id = $1')).toBe(
      1000,
    );
    expect(await count('SELECT count(*)::int AS n FROM event_lines WHERE account_id = $1')).toBe(1000);
    expect(await count('SELECT count(*)::int AS n FROM inventory_records WHERE account_id = $1')).toBe(1000);
    expect(await count('SELECT count(*)::int AS n FROM ledger_entries WHERE account_id = $1')).toBe(500);
    expect(await count(`SELECT count(*)::int AS n FROM batches WHERE account_id = $1 AND status = 'Completed'`)).toBe(
      4,
    );
    // Every lot: 10 in, 4 out, recalculated once the batch finished.
    expect(
      await count(`SELECT count(*)::int AS n FROM inventory_records WHERE account_id = $1 AND available <> 6`),
    ).toBe(0);

    // The kill landed inside a batch: a step (or a workflow task) on the dead worker timed out and ran again.
    const connection = await Connection.connect({ address: stack.state.temporalAddress });
    try {
      const temporal = new Client({ connection });
      const { rows } = await pool.query<{ workflow_id: string }>(
        'SELECT workflow_id FROM batches WHERE account_id = $1',
        [account.id],
      );
      const interrupted = await Promise.all(
        rows.map(async ({ workflow_id: id }) => {
          const history = await temporal.workflow.getHandle(id).fetchHistory();
          return (history.events ?? []).some(
            (e) =>
              (e.activityTaskStartedEventAttributes?.attempt ?? 1) > 1 ||
              e.workflowTaskTimedOutEventAttributes ||
              e.workflowTaskFailedEventAttributes,
          );
        }),
      );
      expect(interrupted).toContain(true);
    } finally {
      await connection.close();
    }

    const verify = await fetch(`${stack.state.apiUrl}/Integration/Ledger/verify`, { headers: { 'X-API-KEY': key } });
    expect(await verify.json()).toMatchObject({ entries: 500, valid: true });
  }, 180_000);

  /**
   * The calls of the three cases below go together, in one freeze: each waits out the API's 10 s deadline
   * on Temporal, so three freezes one after the other took three times that.
   */
  describe('while Temporal does not answer', () => {
    type Answer = { status: number; body: Record<string, string | boolean | undefined> };
    const call = async (path: string, apiKey: string, init: { method?: string; body?: string | FormData } = {}) => {
      const response = await fetch(`${stack.state.apiUrl}${path}`, {
        ...init,
        headers: {
          'X-API-KEY': apiKey,
          ...(init.body instanceof FormData ? {} : { 'Content-Type': 'application/json' }),
        },
      });
      return { status: response.status, body: (await response.json()) as Answer['body'] };
    };
    let batchKey: string;
    let importKey: string;
    let captureKey: string;
    let supportKey: string;
    let batch: Answer;
    let upload: Answer;
    let captured: Answer;
    let retried: Answer;

    beforeAll(async () => {
      ({ key: batchKey } = await createApiKey(uid('frozen'), 'jest'));
      ({ key: importKey } = await createApiKey(uid('frozen-import'), 'jest'));
      ({ key: captureKey } = await createApiKey(uid('frozen-own'), 'jest'));
      ({ key: supportKey } = await createApiKey(uid('frozen-support'), 'jest', 'support'));

      // The location and product the rows name, made the JSON way while Temporal answers.
      const seeded = await call('/Integration/Events', importKey, {
        method: 'POST',
        body: JSON.stringify({
          Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 1))],
        }),
      });
      expect(seeded.status).toBe(200);
      const id = uid('EV');
      const form = new FormData();
      form.set('kind', 'commission');
      form.set(
        'file',
        new Blob([
          'Id,Location.Id,EventTime,EventTimeZone,ProductInstances.Quantity,ProductInstances.LotSerial,ProductInstances.Product.Id\n' +
            `${id},DOCK,2024-03-01T10:00:00,+00:00,4,${uid('LOT')},SALMON\n`,
        ]),
        'frozen.csv',
      );

      // A Failed batch to retry: a ship of a lot nobody commissioned.
      const failed = await call('/Integration/Events/async', captureKey, {
        method: 'POST',
        body: JSON.stringify({
          Events: [ship({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 1))],
        }),
      });
      await waitFor(
        'the batch to fail',
        60_000,
        async () =>
          (await call(`/Integration/Events/async/${failed.body.batchId}`, captureKey)).body.status === 'Failed',
      );
      const ids = gs1Ids();
      const document = epcisDocument([
        objectEvent({
          quantityList: [{ epcClass: ids.lgtin(lotOf()), quantity: 2, uom: 'KGM' }],
          bizLocation: ids.sgln(),
        }),
      ]);

      [batch, upload, captured, retried] = await whileTemporalFrozen(() =>
        Promise.all([
          call('/Integration/Events/async', batchKey, {
            method: 'POST',
            body: JSON.stringify({
              Events: [
                commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 9)),
              ],
            }),
          }),
          call('/Integration/Imports', importKey, { method: 'POST', body: form }),
          call('/epcis/capture', captureKey, { method: 'POST', body: JSON.stringify(document) }),
          call(`/Integration/Batches/${failed.body.batchId}/retry`, supportKey, { method: 'POST' }),
        ]),
      );
    }, 150_000);

    it('answers 503 with the batch id when Temporal does not answer, and the reconciler completes the batch later', async () => {
      expect(batch.status).toBe(503);
      const problem = batch.body as { batchId: string; statusUrl: string; detail: string };
      expect(problem.statusUrl).toBe(`/Integration/Events/async/${problem.batchId}`);
      expect(problem.detail).toMatch(/started automatically/);

      expect(await finalStatus('the reconciler to complete the batch', problem.statusUrl, batchKey)).toBe('Completed');
    }, 150_000);

    it('answers 503 with the import id when Temporal does not answer an upload, and the reconciler imports the file later', async () => {
      expect(upload.status).toBe(503);
      const problem = upload.body as { importId: string; statusUrl: string; detail: string };
      expect(problem.statusUrl).toBe(`/Integration/Imports/${problem.importId}`);
      expect(problem.detail).toMatch(/started automatically/);

      expect(await finalStatus('the reconciler to import the file', problem.statusUrl, importKey)).toBe('Completed');
    }, 150_000);

    it('names in its 503 the resource the caller follows: a capture job for EPCIS, the support view for a support retry', async () => {
      expect([captured.status, retried.status]).toEqual([503, 503]);
      expect(captured.body.statusUrl).toBe(`/epcis/capture/${captured.body.batchId}`);
      expect(retried.body.statusUrl).toBe(`/Integration/Batches/${retried.body.batchId}`);
      // Each caller can follow its own: the account its capture job, support the retry it made.
      expect((await call(retried.body.statusUrl as string, supportKey)).status).toBe(200);
      let job: Answer['body'] = {};
      await waitFor('the reconciler to finish the capture job', 90_000, async () => {
        job = (await call(captured.body.statusUrl as string, captureKey)).body;
        return job.running === false;
      });
      expect(job).toMatchObject({ captureID: captured.body.batchId, success: true });
    }, 150_000);
  });
});
