import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { readWhenFinished } from '../../api/batch-wait';
import type { AppCustom, AppState, Deps } from '../../api/context';
import { BatchFinishedListener } from '../../db/batch-finished';
import { createLogger } from '../../platform/logger';
import { batchStartOf, startBatchWorkflow } from '../../batches/batch-workflow';
import type { Batch } from '../../db/models';
import { findOrCreateBatch } from '../../db/repositories/batches';
import { DEFAULT_PIPELINE_LOCAL_MAX_EVENTS, loadConfig } from '../../platform/config';
import { createAccount, type TestAccount } from '../factories/accounts';
import { storedBatch } from '../factories/batches';
import { commission, instance, uid } from '../factories/events';
import { models } from '../helpers/db';
import { client } from '../helpers/http';
import { temporalClient } from '../helpers/temporal';

/** The longest wait a client can ask for: the stack's SYNC_WAIT_SECONDS (it runs with the test process's environment). */
const SYNC_WAIT_SECONDS = loadConfig().syncWaitSeconds;

/**
 * GET /epcis/capture/{captureID} with RFC 7240's `Prefer: wait=N`: a running job is answered when it has
 * finished (or after N seconds) in one request, instead of the client polling it.
 */
describe('a capture job asked with Prefer: wait', () => {
  const temporal = temporalClient();
  let account: TestAccount;

  beforeAll(async () => {
    account = await createAccount('capture-wait');
  });

  /** A capture job stored as the API stores one, its workflow not started yet: it stays running until started. */
  async function storedJob(): Promise<Batch> {
    models();
    const { batch } = await findOrCreateBatch({
      accountId: account.id,
      mode: 'epcis',
      request: {
        Events: [commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5))],
        captureErrorBehaviour: 'rollback',
        rejected: [],
        created: { products: [], locations: [] },
      },
      eventCount: 1,
    });
    return batch;
  }
  const start = (batch: Batch) =>
    startBatchWorkflow(
      temporal,
      loadConfig().taskQueue,
      batchStartOf(batch, account.name, DEFAULT_PIPELINE_LOCAL_MAX_EVENTS),
    );
  const job = (batch: Batch, prefer?: string) =>
    client(account.key).get<{ running: boolean; success: boolean }>(
      `/epcis/capture/${batch.id}`,
      prefer ? { Prefer: prefer } : {},
    );

  it('answers a running job once it has finished, in one request', async () => {
    const batch = await storedJob();
    const asked = Date.now();
    // Any letter case names the job; the announcement names it in lower case.
    const answer = client(account.key).get<{ running: boolean; success: boolean }>(
      `/epcis/capture/${batch.id.toUpperCase()}`,
      { Prefer: 'wait=20' },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await start(batch);
    const response = await answer;
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ running: false, success: true });
    expect(response.headers.get('preference-applied')).toBe('wait=20');
    expect(response.headers.get('vary')).toMatch(/\bPrefer\b/);
    // Woken by the finish, not by the end of the wait.
    expect(Date.now() - asked).toBeLessThan(10_000);
  });

  it('answers a job that does not finish within the wait as running, once the wait is over', async () => {
    const batch = await storedJob();
    const asked = Date.now();
    const response = await job(batch, 'respond-async, WAIT = 1');
    expect(response.body).toMatchObject({ running: true });
    expect(response.headers.get('preference-applied')).toBe('wait=1');
    expect(Date.now() - asked).toBeGreaterThanOrEqual(1000);
  });

  it('cuts a longer wait to SYNC_WAIT_SECONDS, and ignores a wait it cannot read or none at all', async () => {
    const finished = await storedJob();
    await start(finished);
    expect((await job(finished, 'wait=20')).body).toMatchObject({ running: false });
    const longer = await job(finished, `wait=${SYNC_WAIT_SECONDS + 1}`);
    expect(longer.headers.get('preference-applied')).toBe(`wait=${SYNC_WAIT_SECONDS}`);
    const running = await storedJob();
    for (const prefer of ['wait=soon', 'wait', 'handling=lenient', undefined]) {
      const response = await job(running, prefer);
      expect(response.body).toMatchObject({ running: true });
      expect(response.headers.get('preference-applied')).toBeNull();
    }
  });
});

describe("a batch's status asked with Prefer: wait", () => {
  const temporal = temporalClient();
  let account: TestAccount;

  beforeAll(async () => {
    account = await createAccount('status-wait');
  });

  const underWay = (accountId: string, idempotencyKey?: string) =>
    storedBatch(
      accountId,
      [commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5))],
      'async',
      idempotencyKey,
    );

  /** Asks `path` with Prefer: wait=20, and starts the batch's workflow half a second later. */
  async function askedThenRun(batch: Batch, path: string) {
    const asked = Date.now();
    const answer = client(account.key).get<Record<string, unknown>>(path, { Prefer: 'wait=20' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await startBatchWorkflow(
      temporal,
      loadConfig().taskQueue,
      batchStartOf(batch, account.name, DEFAULT_PIPELINE_LOCAL_MAX_EVENTS),
    );
    const response = await answer;
    expect(response.headers.get('preference-applied')).toBe('wait=20');
    // Woken by the finish, not by the end of the wait.
    expect(Date.now() - asked).toBeLessThan(10_000);
    return response;
  }

  it('answers an async batch under way once it has finished, in one request', async () => {
    const batch = await underWay(account.id);
    const response = await askedThenRun(batch, `/Integration/Events/async/${batch.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'Completed',
      result: [expect.objectContaining({ status: 'Created' })],
    });
    // Without the preference, at once, as before.
    const plain = await client(account.key).get(`/Integration/Events/async/${batch.id}`);
    expect(plain.headers.get('preference-applied')).toBeNull();
  });

  it('answers GET /Integration/Batches/{id} the same way, also when the path names the workflow id', async () => {
    const batch = await underWay(account.id);
    const response = await askedThenRun(batch, `/Integration/Batches/batch-${batch.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ batchId: batch.id, status: 'Completed' });
    // A batch sent with an Idempotency-Key has the key in its workflow id, not the batch's id.
    const keyed = await underWay(account.id, uid('KEY'));
    expect(keyed.workflowId).not.toContain(keyed.id);
    const byKey = await askedThenRun(keyed, `/Integration/Batches/${keyed.workflowId}`);
    expect(byKey.body).toMatchObject({ batchId: keyed.id, status: 'Completed' });
  });

  it("answers another account's batch 404 without waiting", async () => {
    const other = await createAccount('status-wait-other');
    const batch = await underWay(other.id);
    const asked = Date.now();
    const response = await client(account.key).get(`/Integration/Batches/${batch.id}`, { Prefer: 'wait=20' });
    expect(response.status).toBe(404);
    expect(response.headers.get('preference-applied')).toBeNull();
    expect(Date.now() - asked).toBeLessThan(10_000);
  });
});

/**
 * A client that hangs up ends the wait: readWhenFinished on a real Koa server with a real listener, its
 * batch never finishing, asked with Prefer: wait=20 by a client that gives up once the wait has begun.
 */
describe('a status GET whose client hangs up while it waits', () => {
  const listener = new BatchFinishedListener(process.env.DATABASE_URL!, createLogger('silent', 'test'));
  let server: Server;
  let base: string;
  let reads = 0;
  let handled: () => void;
  const handlerDone = new Promise<number>((resolve) => (handled = () => resolve(Date.now())));
  let waiting: () => void;
  const firstRead = new Promise<void>((resolve) => (waiting = resolve));

  beforeAll(async () => {
    await listener.start();
    expect(listener.listening).toBe(true);
    const app = new Koa<AppState, AppCustom>();
    app.context.deps = { batchFinished: listener, config: loadConfig() } as unknown as Deps;
    const router = new Router<AppState, AppCustom>();
    router.get('/', async (ctx) => {
      await readWhenFinished(ctx, randomUUID(), async () => {
        reads += 1;
        waiting();
        return { status: 'Running' as const };
      });
      handled();
      ctx.body = {};
    });
    app.use(router.routes());
    server = app.listen(0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await listener.stop();
    await new Promise((resolve) => server.close(resolve));
  });

  it('stops waiting once the client has gone, without reading again', async () => {
    const asked = new AbortController();
    const answer = fetch(`${base}/`, { headers: { Prefer: 'wait=20' }, signal: asked.signal }).catch(() => 'hung up');
    // Hang up once the handler has read the batch (and is about to wait on it).
    await firstRead;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const hungUpAt = Date.now();
    asked.abort();
    expect(await answer).toBe('hung up');
    expect((await handlerDone) - hungUpAt).toBeLessThan(2_000);
    expect(reads).toBe(1);
  });
});
