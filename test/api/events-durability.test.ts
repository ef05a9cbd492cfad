import { spawn, type ChildProcess } from 'node:child_process';
import { type WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { batchStartOf, startBatchWorkflow } from '../../batches/batch-workflow';
import { lockBatchTimelines } from '../../db/repositories/inventory-timelines';
import { timelineKey } from '../../db/sql';
import { loadConfig, PROJECT_ROOT } from '../../platform/config';
import { freePort, waitFor } from '../../platform/net';
import { RECONCILER_WORKFLOW_ID } from '../../batches/reconciler';
import type { ReconcileBatchesResult } from '../../pipeline/contracts';
import * as reconciler from '../helpers/reconciler';
import type { EventPayload } from '../../domain/events';
import { createAccount, type TestAccount } from '../factories/accounts';
import { storedBatch } from '../factories/batches';
import { commission, instance, ship, uid } from '../factories/events';
import { holdingTimeline, sql, timelineOf } from '../helpers/db';
import { client, request } from '../helpers/http';
import { localActivityMarker } from '../helpers/local-activity-marker';
import { startReceiver } from '../helpers/receiver';
import { startReplica, stopReplica } from '../helpers/replica';
import { typescriptCommand } from '../helpers/stack';
import { temporalClient } from '../helpers/temporal';

/**
 * The pipeline at its edges (issue 13): batches larger than Temporal's payload limit, batches whose
 * workflow was never started, steps that keep failing after the events are stored, sync calls that
 * outlast their wait, and an API with no worker behind it.
 */
describe('the event pipeline at its edges', () => {
  const temporal = temporalClient();
  let account: TestAccount;

  beforeAll(async () => {
    account = await createAccount('edges');
  });

  async function statusOf(
    batchId: string,
  ): Promise<{ status: string; message: string; errors: { code: string; message: string }[] | null }> {
    return (await client(account.key).get(`/Integration/Events/async/${batchId}`)).body;
  }

  async function settle(batchId: string, timeoutMs = 60_000) {
    let body = await statusOf(batchId);
    await waitFor(`batch ${batchId} to finish`, timeoutMs, async () => {
      body = await statusOf(batchId);
      return body.status === 'Completed' || body.status === 'Failed';
    });
    return body;
  }

  /** A batch stored the way the API stores one, whose workflow was never started (the API died in between). */
  async function strandedBatch(events: EventPayload[], owner: TestAccount = account): Promise<string> {
    const batch = await storedBatch(owner.id, events);
    await sql().query(`UPDATE batches SET submitted_at = now() - interval '10 minutes' WHERE id = $1`, [batch.id]);
    return batch.id;
  }

  const reconcileUntil = (what: string, done: () => Promise<boolean>) =>
    reconciler.reconcileUntil(temporal, what, 60_000, done);

  /**
   * Makes the account's ledger appends fail (a step failing after persist) until the returned function
   * is called; `attempts` counts the statements refused (a sequence: a rollback does not undo it).
   */
  async function refuseLedger(): Promise<(() => Promise<void>) & { attempts(): Promise<number> }> {
    const trigger = uid('refuse_ledger').replace('-', '_');
    await sql().query(`
      CREATE SEQUENCE ${trigger}_attempts;
      CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM nextval('${trigger}_attempts'); RAISE EXCEPTION 'ledger refused by the test'; END $$;
      CREATE TRIGGER ${trigger} BEFORE INSERT ON ledger_entries FOR EACH ROW WHEN (NEW.account_id = '${account.id}') EXECUTE FUNCTION ${trigger}();`);
    const allow = async () => {
      await sql().query(
        `DROP TRIGGER ${trigger} ON ledger_entries; DROP FUNCTION ${trigger}(); DROP SEQUENCE ${trigger}_attempts;`,
      );
    };
    const attempts = async () => {
      const { rows } = await sql().query<{ n: string }>(
        `SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM ${trigger}_attempts`,
      );
      return Number(rows[0].n);
    };
    return Object.assign(allow, { attempts });
  }

  /**
   * A batch of three commissions whose steps run as activity tasks, which the Temporal UI lists as
   * pending while they retry: stored as the API stores it and started as the API would with
   * PIPELINE_LOCAL_MAX_EVENTS=0 (by default every batch's steps are local). Its id and workflow.
   */
  const ACTIVITY_TASK_EVENTS = 3;
  async function activityTaskBatch(
    lot: string,
    quantity: number,
  ): Promise<{ batchId: string; handle: WorkflowHandle }> {
    const events = Array.from({ length: ACTIVITY_TASK_EVENTS }, (_, i) =>
      commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', `${lot}-${i}`, quantity)),
    );
    const batch = await storedBatch(account.id, events);
    const { workflowId } = await startBatchWorkflow(
      temporal,
      loadConfig().taskQueue,
      batchStartOf(batch, account.name, 0),
    );
    // Not the started run's handle: that one follows its own run, and a test may end it and start another.
    return { batchId: batch.id, handle: temporal.workflow.getHandle(workflowId) };
  }

  /** The reconciler run until the batch has moved on from Accepted. */
  const reconcile = (batchId: string) =>
    reconcileUntil(
      `the reconciler to pick up batch ${batchId}`,
      async () => (await statusOf(batchId)).status !== 'Accepted',
    );

  it('processes a valid batch of 1,000 events with inline master data, over 2 MB of JSON', async () => {
    const lot = uid('LOT');
    const certificates = Array.from({ length: 8 }, (_, i) => ({
      Type: 'urn:gdst:certType:harvestCoC',
      Standard: 'Marine Stewardship Council',
      Agency: 'Marine Stewardship Council International',
      Value: `MSC-C-${String(i).padStart(5, '0')}`,
      Identification: `Chain of custody certificate ${i} for the harvest of this lot`,
    }));
    const events = Array.from({ length: 1000 }, (_, i) => ({
      ...commission({ location: 'BIG-DOCK', time: '2024-03-01T10:00:00Z' }, instance('BIG-COD', `${lot}-${i}`, 10)),
      PurchaseOrder: `PO-${i}`,
      CertificationList: certificates,
    }));
    const body = JSON.stringify({ Events: events });
    expect(Buffer.byteLength(body)).toBeGreaterThan(2 * 1024 * 1024);

    const response = await request('POST', '/Integration/Events', {
      key: account.key,
      body,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.body.errors ?? []).toEqual([]);
    expect(response.status).toBe(200);
    expect(response.body.result).toHaveLength(1000);
    const { rows } = await sql().query('SELECT count(*)::int AS n FROM events WHERE batch_id = $1', [
      response.body.batchId,
    ]);
    expect(rows[0].n).toBe(1000);
  }, 120_000);

  it('starts a batch left Accepted with no workflow, from the reconcile-batches workflow', async () => {
    const lot = uid('LOT');
    const batchId = await strandedBatch([
      commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', lot, 7)),
    ]);
    const waiting = await statusOf(batchId);
    expect(waiting.status).toBe('Accepted');
    expect(waiting.message).toMatch(/started automatically/);

    await reconcile(batchId);
    expect((await settle(batchId)).status).toBe('Completed');
    const { rows } = await sql().query(
      'SELECT available::float AS available FROM inventory_records r JOIN events e ON e.id = r.event_id WHERE e.batch_id = $1',
      [batchId],
    );
    expect(rows).toEqual([{ available: 7 }]);
    // The reconciler's history lists what each pass started.
    const { events } = await temporal.workflow.getHandle(RECONCILER_WORKFLOW_ID).fetchHistory();
    const started = events!.flatMap((event) => {
      const payload = event.activityTaskCompletedEventAttributes?.result?.payloads?.[0];
      return payload ? defaultPayloadConverter.fromPayload<ReconcileBatchesResult>(payload as Payload).started : [];
    });
    expect(started).toContain(batchId);
  }, 90_000);

  it("refuses a stored batch that never passed the API's checks (a time that does not exist, a location without an id) when a worker runs it", async () => {
    // The API refuses such a request before storing it; a batch stored otherwise (before those checks,
    // a retry of an old one) is checked by the pipeline all the same, and stores nothing.
    const badTime = {
      ...commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 1)),
      EventTime: '2024-02-30T10:00:00',
    };
    const noLocationId = {
      ...commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 1)),
      Location: {},
    };
    const batchId = await strandedBatch([badTime, noLocationId]);
    await reconcile(batchId);
    const done = await settle(batchId);
    expect(done.status).toBe('Failed');
    expect(done.errors).toEqual([
      expect.objectContaining({ index: 0, code: 'InvalidValue', field: 'EventTime' }),
      expect.objectContaining({
        index: 1,
        code: 'Required',
        field: 'Location.Id',
        message: 'Location.Id is required.',
      }),
    ]);
    const { rows } = await sql().query('SELECT count(*)::int AS n FROM events WHERE batch_id = $1', [batchId]);
    expect(rows[0].n).toBe(0);
  }, 90_000);

  it('records as Failed a stranded batch whose workflow ended before it stored anything, and sends its batch.failed', async () => {
    const owner = await createAccount('stranded-hooks');
    const receiver = await startReceiver();
    try {
      const endpoint = await client(owner.key).post('/Integration/Webhooks', {
        Url: receiver.url,
        Events: ['batch.failed'],
      });
      expect(endpoint.status).toBe(201);
      const batchId = await strandedBatch(
        [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 1))],
        owner,
      );
      const { rows } = await sql().query<{ workflow_id: string }>('SELECT workflow_id FROM batches WHERE id = $1', [
        batchId,
      ]);
      // Started where no worker polls, then terminated: the workflow exists, closed, and stored nothing.
      const handle = await temporal.workflow.start('processEventBatch', {
        taskQueue: `nobody-${uid('q')}`,
        workflowId: rows[0].workflow_id,
        args: [{ batchId, accountId: owner.id, accountName: owner.name, requestId: null }],
      });
      await handle.terminate('test: an operator ended it');

      await reconcileUntil(
        `the reconciler to pick up batch ${batchId}`,
        async () => (await client(owner.key).get(`/Integration/Events/async/${batchId}`)).body.status !== 'Accepted',
      );
      const failed = (await client(owner.key).get(`/Integration/Events/async/${batchId}`)).body;
      expect(failed.status).toBe('Failed');
      expect(failed.errors).toEqual([
        expect.objectContaining({ code: 'InternalError', message: expect.stringContaining('TERMINATED') }),
      ]);
      const [delivery] = await receiver.waitFor(1);
      const notice = JSON.parse(delivery.body) as { type: string; data: { batchId: string; status: string } };
      expect(notice).toMatchObject({ type: 'batch.failed', data: { batchId, status: 'Failed' } });
    } finally {
      await receiver.close();
    }
  }, 90_000);

  it("goes on with a batch's local step that keeps failing as an activity task: listed as pending, the batch Running, then Completed", async () => {
    const allowLedger = await refuseLedger();
    let batchId: string;
    let workflowId: string;
    try {
      const accepted = await client(account.key).post('/Integration/Events/async', {
        Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 3))],
      });
      expect(accepted.status).toBe(202);
      batchId = accepted.body.batchId;
      const { rows } = await sql().query<{ workflow_id: string }>('SELECT workflow_id FROM batches WHERE id = $1', [
        batchId,
      ]);
      workflowId = rows[0].workflow_id;
      const handle = temporal.workflow.getHandle(workflowId);
      const pendingLedger = async () =>
        (await handle.describe()).raw.pendingActivities?.find((a) => a.activityType?.name === 'commitLedger');
      await waitFor('commitLedger to be pending as an activity task', 60_000, async () =>
        Boolean(await pendingLedger()),
      );
      await waitFor(
        'commitLedger to have failed as a task',
        60_000,
        async () => ((await pendingLedger())?.attempt ?? 0) >= 2,
      );
      // Its local attempts (3) and then the task's.
      expect(await allowLedger.attempts()).toBeGreaterThanOrEqual(4);
      expect((await pendingLedger())?.lastFailure?.message).toContain('ledger refused by the test');
      expect((await statusOf(batchId)).status).toBe('Running');
    } finally {
      await allowLedger();
    }
    expect((await settle(batchId, 90_000)).status).toBe('Completed');
    const history = await temporal.workflow.getHandle(workflowId).fetchHistory();
    const ledgerMarker = history.events?.findIndex((e) => localActivityMarker(e)?.activity_type === 'commitLedger');
    const ledgerTask = history.events?.findIndex(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'commitLedger',
    );
    expect(ledgerMarker).toBeGreaterThanOrEqual(0);
    expect(ledgerTask).toBeGreaterThan(ledgerMarker!);
    expect((await client(account.key).get('/Integration/Ledger/verify')).body).toMatchObject({ valid: true });
  }, 180_000);

  it('keeps retrying an activity task that fails after persist: the batch stays Running, never Failed, and completes once the cause is gone', async () => {
    const allowLedger = await refuseLedger();
    let batchId: string;
    try {
      const started = await activityTaskBatch(uid('LOT'), 3);
      batchId = started.batchId;
      const { handle } = started;
      const pendingLedger = async () =>
        (await handle.describe()).raw.pendingActivities?.find((a) => a.activityType?.name === 'commitLedger');

      await waitFor(
        'commitLedger to have failed three times',
        60_000,
        async () => ((await pendingLedger())?.attempt ?? 0) >= 3,
      );
      const pending = await pendingLedger();
      expect(pending?.maximumAttempts).toBe(0); // unlimited
      expect(pending?.lastFailure?.message).toContain('ledger refused by the test');
      expect((await statusOf(batchId)).status).toBe('Running');
    } finally {
      await allowLedger();
    }
    expect((await settle(batchId, 90_000)).status).toBe('Completed');
    const verify = await client(account.key).get('/Integration/Ledger/verify');
    expect(verify.body).toMatchObject({ valid: true });
  }, 180_000);

  it('runs again a Running batch whose workflow an operator terminated after its events were stored, and it completes', async () => {
    const allowLedger = await refuseLedger();
    const lot = uid('LOT');
    let batchId: string;
    let handle: WorkflowHandle;
    let terminatedRun: string;
    try {
      ({ batchId, handle } = await activityTaskBatch(lot, 4));
      // Persisted, then held at the ledger step: an operator ends the run there.
      await waitFor('commitLedger to have failed once', 60_000, async () =>
        Boolean(
          (await handle.describe()).raw.pendingActivities?.some(
            (a) => a.activityType?.name === 'commitLedger' && (a.attempt ?? 0) >= 2,
          ),
        ),
      );
      terminatedRun = (await handle.describe()).runId;
      await handle.terminate('test: an operator ended it after persist');
      expect((await statusOf(batchId)).status).toBe('Running');
      await sql().query(`UPDATE batches SET started_at = now() - interval '10 minutes' WHERE id = $1`, [batchId]);
    } finally {
      await allowLedger();
    }

    await reconcileUntil(
      `the reconciler to run batch ${batchId} again`,
      async () => (await handle.describe()).runId !== terminatedRun,
    );
    expect((await settle(batchId)).status).toBe('Completed');
    // The run ends just after its status step writes Completed: its result is waited for first.
    await handle.result();
    const latest = await handle.describe();
    expect(latest.status.name).toBe('COMPLETED');
    expect(latest.runId).not.toBe(terminatedRun);
    // Stored once, recalculated and on the ledger, as if the run had never been ended.
    const { rows } = await sql().query(
      `SELECT count(*)::int AS events, min(r.available)::float AS available, count(l.event_id)::int AS ledger
         FROM events e JOIN inventory_records r ON r.event_id = e.id LEFT JOIN ledger_entries l ON l.event_id = e.id
        WHERE e.batch_id = $1`,
      [batchId],
    );
    expect(rows).toEqual([{ events: ACTIVITY_TASK_EVENTS, available: 4, ledger: ACTIVITY_TASK_EVENTS }]);
    expect((await client(account.key).get('/Integration/Ledger/verify')).body).toMatchObject({ valid: true });
  }, 180_000);

  it('runs a Running batch whose workflow Temporal does not know (its history lost) again', async () => {
    const lot = uid('LOT');
    const batchId = await strandedBatch([
      commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', lot, 6)),
    ]);
    await sql().query(
      `UPDATE batches SET status = 'Running', started_at = now() - interval '10 minutes' WHERE id = $1`,
      [batchId],
    );
    await reconcileUntil(
      `the reconciler to run batch ${batchId}`,
      async () => (await statusOf(batchId)).status !== 'Running',
    );
    expect((await settle(batchId)).status).toBe('Completed');
    const { rows } = await sql().query(
      'SELECT available::float AS available FROM inventory_records r JOIN events e ON e.id = r.event_id WHERE e.batch_id = $1',
      [batchId],
    );
    expect(rows).toEqual([{ available: 6 }]);
  }, 90_000);

  it('recalculateTimeline locks a batch’s timelines under the keys persistEvents locks them by', async () => {
    const lot = uid('LOT');
    const created = await client(account.key).post('/Integration/Events', {
      Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', lot, 5))],
    });
    expect(created.status).toBe(200);
    const recalculation = await sql().connect();
    const other = await sql().connect();
    const tryLock = async (key: string) =>
      (
        await other.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked', [
          key,
        ])
      ).rows[0].locked;
    try {
      await recalculation.query('BEGIN');
      const timelines = await lockBatchTimelines(
        async <T extends object>(text: string, bind: unknown[]) => (await recalculation.query<T>(text, bind)).rows,
        account.id,
        created.body.batchId,
      );
      expect(timelines).toEqual([{ productId: expect.any(String), lotSerial: lot, locationId: expect.any(String) }]);
      const [{ productId, locationId }] = timelines;
      const key = timelineKey(account.id, productId, lot, locationId);
      expect(await tryLock(key)).toBe(false);
      await recalculation.query('COMMIT');
      expect(await tryLock(key)).toBe(true);
    } finally {
      // A failed expectation leaves the transaction open: its locks must not go back to the pool with it.
      await recalculation.query('ROLLBACK');
      recalculation.release();
      other.release();
    }
  });

  it('answers a sync call still under way after SYNC_WAIT_SECONDS with 202 and its batch id', async () => {
    const lot = uid('LOT');
    const created = await client(account.key).post('/Integration/Events', {
      Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', lot, 5))],
    });
    expect(created.status).toBe(200);
    // A replica waiting 2 s (the stack's API waits the default 30 s, which the other tests' sync calls need
    // on a loaded machine); the stack's workers run the batch.
    const waitSeconds = 2;
    const replica = await startReplica({ SYNC_WAIT_SECONDS: String(waitSeconds), API_SYNC_WORKER: 'false' });
    // The ship's persist waits on the lot's timeline lock, held here, for longer than the sync wait.
    let batchId = '';
    try {
      await holdingTimeline(await timelineOf(account.id, created.body.batchId), async () => {
        const started = Date.now();
        const response = await request('POST', '/Integration/Events', {
          key: account.key,
          baseUrl: replica.url,
          body: { Events: [ship({ location: 'DOCK', time: '2024-03-02T10:00:00Z' }, instance('SALMON', lot, 2))] },
        });
        expect(response.status).toBe(202);
        expect(Date.now() - started).toBeGreaterThanOrEqual((waitSeconds - 1) * 1000);
        expect(response.body).toEqual({
          message: expect.any(String),
          batchId: expect.any(String),
          status: 'Accepted',
          statusUrl: `/Integration/Events/async/${response.body.batchId}`,
        });
        batchId = response.body.batchId;
      });
    } finally {
      await stopReplica(replica);
    }
    expect((await settle(batchId)).status).toBe('Completed');
  }, 120_000);

  it('two batches creating the same new products and locations in opposite orders both succeed at once, without a deadlock', async () => {
    for (let round = 0; round < 3; round++) {
      const ids = Array.from({ length: 8 }, (_, i) => uid(`RACE${i}`));
      const batch = (order: string[]) =>
        order.map((id) =>
          commission({ location: `DOCK-${id}`, time: '2024-03-01T10:00:00Z' }, instance(`FISH-${id}`, uid('LOT'), 1)),
        );
      const responses = await Promise.all(
        [ids, [...ids].reverse()].map((order) =>
          client(account.key).post('/Integration/Events', { Events: batch(order) }),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual([200, 200]);
      // A deadlock is broken by PostgreSQL failing one transaction: persist would have needed a second attempt.
      for (const response of responses) {
        const { rows } = await sql().query<{ workflow_id: string }>('SELECT workflow_id FROM batches WHERE id = $1', [
          response.body.batchId,
        ]);
        const handle = temporal.workflow.getHandle(rows[0].workflow_id);
        await handle.result();
        const history = await handle.fetchHistory();
        // A batch's steps are local activities by default: their attempts are in their markers.
        const attempts = history.events?.flatMap((e) =>
          e.activityTaskStartedEventAttributes
            ? [e.activityTaskStartedEventAttributes.attempt]
            : (localActivityMarker(e)?.attempt ?? []),
        );
        expect(attempts).toEqual(expect.arrayContaining([1]));
        expect(attempts?.every((attempt) => attempt === 1)).toBe(true);
      }
    }
  }, 120_000);

  describe('an API whose task queue no worker polls', () => {
    let api: ChildProcess;
    let url: string;
    let handle: WorkflowHandle | undefined;

    beforeAll(async () => {
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      api = spawn(...typescriptCommand('api/main.ts'), {
        cwd: PROJECT_ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          TASK_QUEUE: uid('unpolled'),
          // Nor its own worker, which would run a small sync batch itself.
          API_SYNC_WORKER: 'false',
          SYNC_WAIT_SECONDS: '2',
          LOG_LEVEL: 'warn',
        },
        stdio: 'ignore',
      });
      await waitFor('the extra API', 60_000, () =>
        fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
      );
    }, 90_000);
    afterAll(async () => {
      await handle?.terminate('test: no worker polls its task queue').catch(() => undefined);
      api?.kill('SIGTERM');
    });

    it('is not ready: /readyz names the missing worker', async () => {
      const response = await fetch(`${url}/readyz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ checks: { database: 'ok', temporal: 'ok', worker: 'missing' } });
    });

    it('answers a sync call with 202 and the batch id after SYNC_WAIT_SECONDS instead of waiting for ever', async () => {
      const started = Date.now();
      const response = await fetch(`${url}/Integration/Events`, {
        method: 'POST',
        headers: { 'X-API-KEY': account.key, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 1))],
        }),
      });
      expect(response.status).toBe(202);
      expect(Date.now() - started).toBeLessThan(15_000);
      const body = (await response.json()) as { batchId: string; statusUrl: string };
      expect(body.statusUrl).toBe(`/Integration/Events/async/${body.batchId}`);
      expect((await statusOf(body.batchId)).status).toBe('Accepted');
      const { rows } = await sql().query<{ workflow_id: string }>('SELECT workflow_id FROM batches WHERE id = $1', [
        body.batchId,
      ]);
      handle = temporal.workflow.getHandle(rows[0].workflow_id);
    }, 30_000);
  });
});
