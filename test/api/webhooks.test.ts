import { Client, Connection } from '@temporalio/client';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { createAccount, createSupportKey, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, objectEvent } from '../factories/epcis';
import { commission, instance, ship, uid } from '../factories/events';
import { completeBatch } from '../../db/repositories/batch-notifications';
import { deliveriesTaskQueueOf } from '../../domain/task-queues';
import { TASK_QUEUE } from '../../platform/config';
import { models, sql } from '../helpers/db';
import { client, request } from '../helpers/http';
import { startReceiver, type Receiver, type Received } from '../helpers/receiver';

/** What a receiver does with a delivery: verify it with the Standard Webhooks reference library, then read it. */
function verified(
  secret: string,
  delivery: Received,
): { type: string; timestamp: string; data: Record<string, unknown> } {
  const headers = {
    'webhook-id': String(delivery.headers['webhook-id']),
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': String(delivery.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(delivery.body, headers) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };
}

async function endpointFor(account: TestAccount, receiver: Receiver, events = ['batch.completed', 'batch.failed']) {
  const created = await client(account.key).post('/Integration/Webhooks', { Url: receiver.url, Events: events });
  expect(created.status).toBe(201);
  return created.body as { id: string; secret: string };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const goodBatch = () => {
  const lot = uid('LOT');
  return { lot, events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', lot, 10))] };
};

/**
 * A receiver that hangs on its first delivery, while three sync batches are sent: their statuses and how
 * long they took, what the receiver got, and the endpoint's deliveries once all four requests arrived.
 */
async function hungReceiver() {
  const account = await createAccount('hooks-slow');
  const hooks = await startReceiver();
  try {
    hooks.answer = (index) => (index === 0 ? { hangMs: 30_000 } : 200);
    const endpoint = await endpointFor(account, hooks);
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await client(account.key).post('/Integration/Events', { Events: goodBatch().events })).status);
    const tookMs = Date.now() - started;
    // A refused batch owes nothing: its test then fails on the statuses, not on a wait.
    if (statuses.some((status) => status !== 200)) return { statuses, tookMs, ids: [], results: [] };
    const all = await hooks.waitFor(4, () => true, 60_000);
    const ids = all.map((r) => r.headers['webhook-id']);
    const deliveries = await client(account.key).get(`/Integration/Webhooks/${endpoint.id}/deliveries`);
    return { statuses, tookMs, ids, results: deliveries.body.results as { id: string; attempts: unknown[] }[] };
  } finally {
    await hooks.close();
  }
}

describe('/Integration/Webhooks', () => {
  let temporal: Client;
  // The hung receiver's case waits out a 10 s cut: started first, so that it passes beside the tests before
  // its own (the one just before waits out the stack's 20 s retry window), which awaits it.
  let hung: ReturnType<typeof hungReceiver>;
  beforeAll(async () => {
    hung = hungReceiver();
    hung.catch(() => undefined); // its test reports it
    temporal = new Client({ connection: await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! }) });
  });
  afterAll(async () => {
    await temporal.connection.close();
  });
  let receivers: Receiver[] = [];
  const receiver = async () => {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  };
  afterEach(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    receivers = [];
  });

  it('adds an endpoint and shows its secret once', async () => {
    const account = await createAccount('hooks');
    const hooks = await receiver();
    const created = await client(account.key).post('/Integration/Webhooks', {
      Url: hooks.url,
      Events: ['batch.completed'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      account: account.name,
      url: hooks.url,
      events: ['batch.completed'],
      status: 'Active',
      failingSince: null,
      failingReason: null,
      pendingDeliveries: 0,
      createdTime: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    const one = await client(account.key).get(`/Integration/Webhooks/${created.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('secret');
    const list = await client(account.key).get('/Integration/Webhooks');
    expect(list.body.results.map((e: { id: string }) => e.id)).toEqual([created.body.id]);
    expect(list.body.results[0]).not.toHaveProperty('secret');

    const other = await createAccount('hooks-other');
    expect((await client(other.key).get(`/Integration/Webhooks/${created.body.id}`)).status).toBe(404);
    expect((await client(other.key).get('/Integration/Webhooks')).body.totalItems).toBe(0);
    expect((await client(account.key).get('/Integration/Webhooks/not-a-uuid')).status).toBe(404);
  });

  it('lists failing endpoints: an account key its own, a support key every account’s', async () => {
    const [one, two] = [await createAccount('hooks-failing-a'), await createAccount('hooks-failing-b')];
    const support = await createSupportKey();
    const ids: string[] = [];
    for (const account of [one, two]) {
      const created = await client(account.key).post('/Integration/Webhooks', {
        Url: 'http://127.0.0.1:9/x',
        Events: ['batch.failed'],
      });
      ids.push(created.body.id);
    }
    await sql().query(
      `UPDATE webhook_endpoints SET failing_since = now(), failing_reason = 'down' WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const own = await client(one.key).get('/Integration/Webhooks?Status=Failing');
    expect(own.body.results.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
    const all = await client(support.key).get('/Integration/Webhooks?Status=Failing&PageSize=100');
    expect(
      all.body.results
        .filter((e: { id: string }) => ids.includes(e.id))
        .map((e: { account: string; status: string }) => [e.account, e.status]),
    ).toEqual([
      [one.name, 'Failing'],
      [two.name, 'Failing'],
    ]);
    expect((await client(one.key).get('/Integration/Webhooks?Status=Active')).body.totalItems).toBe(0);
    const bad = await client(one.key).get('/Integration/Webhooks?Status=Broken');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('Status');
  });

  it.each([
    ['http to a public host', 'http://93.184.216.34/hooks', 'must use https'],
    ['a private address', 'https://10.1.2.3/hooks', 'is loopback, private or reserved'],
    ['loopback not allowed by the operator', 'https://127.0.0.2/hooks', 'is loopback, private or reserved'],
    ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hooks', 'is loopback, private or reserved'],
    ['localhost', 'https://localhost/hooks', 'is this machine'],
    ['metadata endpoint', 'https://169.254.169.254/latest', 'is loopback, private or reserved'],
    ['not a URL', 'hooks', 'absolute https URL'],
  ])('refuses %s with a 400 naming Url', async (_, url, message) => {
    const account = await createAccount('hooks-refused');
    const refused = await client(account.key).post('/Integration/Webhooks', { Url: url, Events: ['batch.completed'] });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.Url[0]).toContain(message);
    const { rows } = await sql().query('SELECT count(*)::int AS n FROM webhook_endpoints WHERE account_id = $1', [
      account.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('refuses unknown fields and events with a 400 naming them', async () => {
    const account = await createAccount('hooks-fields');
    const unknown = await client(account.key).post('/Integration/Webhooks', {
      Url: 'https://93.184.216.34/x',
      Events: ['batch.completed'],
      Secret: 'mine',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toHaveProperty('Secret');
    const badEvent = await client(account.key).post('/Integration/Webhooks', {
      Url: 'https://93.184.216.34/x',
      Events: ['batch.started'],
    });
    expect(badEvent.status).toBe(400);
    expect(badEvent.body.errors).toHaveProperty(['Events[0]']);
  });

  it('signs batch.completed the Standard Webhooks way, from the async endpoint and from EPCIS capture', async () => {
    const account = await createAccount('hooks-completed');
    const hooks = await receiver();
    const endpoint = await endpointFor(account, hooks);

    const { events } = goodBatch();
    const accepted = await client(account.key).post('/Integration/Events/async', { Events: events });
    expect(accepted.status).toBe(202);
    const [first] = await hooks.waitFor(1);
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(first.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verified(endpoint.secret, first)).toEqual({
      type: 'batch.completed',
      timestamp: expect.any(String),
      data: { batchId: accepted.body.batchId, status: 'Completed', mode: 'async', eventCount: 1, errors: [] },
    });
    // A tampered body does not verify.
    expect(() => verified(endpoint.secret, { ...first, body: first.body.replace('Completed', 'Failed') })).toThrow(
      WebhookVerificationError,
    );

    const job = await capture(account.key, epcisDocument([objectEvent()]));
    expect(job.success).toBe(true);
    const [, second] = await hooks.waitFor(2);
    expect(verified(endpoint.secret, second).data).toMatchObject({
      batchId: job.captureID.replace(/^capture-/, ''),
      status: 'Completed',
      mode: 'epcis',
      eventCount: 1,
    });

    const deliveries = await client(account.key).get(`/Integration/Webhooks/${endpoint.id}/deliveries`);
    expect(deliveries.body.results).toHaveLength(2);
    expect(deliveries.body.results[1]).toMatchObject({
      id: first.headers['webhook-id'],
      status: 'Delivered',
      attempts: [{ httpStatus: 200, error: null, nextTry: null }],
    });
  });

  it('sends batch.failed with the errors of a sync batch the pipeline refused', async () => {
    const account = await createAccount('hooks-failed');
    const hooks = await receiver();
    const endpoint = await endpointFor(account, hooks, ['batch.failed']);
    const ok = goodBatch();
    expect((await client(account.key).post('/Integration/Events', { Events: ok.events })).status).toBe(200);
    const tooMuch = ship({ location: 'DOCK', time: '2024-03-02T10:00:00Z' }, instance('SALMON', ok.lot, 500));
    const refused = await client(account.key).post('/Integration/Events', { Events: [tooMuch] });
    expect(refused.status).toBe(400);
    const [delivery] = await hooks.waitFor(1);
    const { data } = verified(endpoint.secret, delivery);
    expect(data).toMatchObject({
      status: 'Failed',
      mode: 'sync',
      eventCount: 1,
      errors: [expect.objectContaining({ code: 'InsufficientInventory', eventId: tooMuch.Id })],
    });
    // Only batch.failed was asked for: the completed batch before it sent nothing.
    expect(hooks.received).toHaveLength(1);
  });

  it('keeps a Failed batch Failed: a late completion (a replayed status step) changes nothing and owes nothing', async () => {
    const account = await createAccount('hooks-failed-stays');
    const hooks = await receiver();
    await endpointFor(account, hooks);
    const refused = await client(account.key).post('/Integration/Events', {
      Events: [ship({ location: 'DOCK', time: '2024-03-02T10:00:00Z' }, instance('SALMON', uid('LOT'), 5))],
    });
    expect(refused.status).toBe(400);
    const [failed] = await hooks.waitFor(1);
    const { batchId } = (JSON.parse(failed.body) as { data: { batchId: string } }).data;

    const late = await completeBatch(models(), batchId, {});
    expect(late.result.changed).toBe(false);
    const { rows } = await sql().query<{ status: string; types: string[] }>(
      `SELECT b.status, ARRAY(SELECT type FROM webhook_deliveries WHERE source_key = 'batch:' || b.id::text) AS types
         FROM batches b WHERE b.id = $1`,
      [batchId],
    );
    expect(rows).toEqual([{ status: 'Failed', types: ['batch.failed'] }]);
  });

  it('retries a receiver that is down for a while, under the same Webhook-Id, and lists every attempt', async () => {
    const account = await createAccount('hooks-retry');
    const hooks = await receiver();
    hooks.answer = (index) => (index < 2 ? 503 : 200);
    const endpoint = await endpointFor(account, hooks);
    const { events } = goodBatch();
    await client(account.key).post('/Integration/Events/async', { Events: events });
    const tries = await hooks.waitFor(3);
    expect(new Set(tries.map((t) => t.headers['webhook-id'])).size).toBe(1);
    for (const attempt of tries) expect(verified(endpoint.secret, attempt).type).toBe('batch.completed');

    const listed = await until('the delivered attempt to be recorded', async () => {
      const deliveries = await client(account.key).get(`/Integration/Webhooks/${endpoint.id}/deliveries`);
      return deliveries.body.results[0]?.status === 'Delivered' ? deliveries.body.results[0] : undefined;
    });
    expect(listed.id).toBe(tries[0].headers['webhook-id']);
    expect(listed.attempts).toEqual([
      { time: expect.any(String), httpStatus: 503, error: 'the receiver answered 503', nextTry: expect.any(String) },
      { time: expect.any(String), httpStatus: 503, error: 'the receiver answered 503', nextTry: expect.any(String) },
      { time: expect.any(String), httpStatus: 200, error: null, nextTry: null },
    ]);
    expect(Date.parse(listed.attempts[0].nextTry)).toBeGreaterThan(Date.parse(listed.attempts[0].time));
  });

  it('marks an endpoint failing when retries run out, keeps what follows, and resumes in order on redeliver', async () => {
    const account = await createAccount('hooks-failing');
    const hooks = await receiver();
    let down = true;
    hooks.answer = () => (down ? 500 : 200);
    const endpoint = await endpointFor(account, hooks);
    const first = await client(account.key).post('/Integration/Events/async', { Events: goodBatch().events });

    // The test stack retries for 20 s (WEBHOOK_RETRY_SECONDS); production for 72 hours.
    const failing = await until(
      'the endpoint to be marked failing',
      async () => {
        const shown = await client(account.key).get(`/Integration/Webhooks/${endpoint.id}`);
        return shown.body.status === 'Failing' ? shown.body : undefined;
      },
      60_000,
    );
    expect(failing).toMatchObject({
      failingSince: expect.any(String),
      failingReason: 'the receiver answered 500',
      pendingDeliveries: 1,
    });

    const second = await client(account.key).post('/Integration/Events/async', { Events: goodBatch().events });
    await until('the second batch to finish', async () => {
      const { rows } = await sql().query(`SELECT status FROM batches WHERE id = $1`, [second.body.batchId]);
      return rows[0].status === 'Completed' ? true : undefined;
    });
    const triesWhileFailing = hooks.received.length;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    // Failing: nothing more is sent, the second notification waits.
    expect(hooks.received).toHaveLength(triesWhileFailing);
    const waiting = await client(account.key).get(`/Integration/Webhooks/${endpoint.id}/deliveries`);
    expect(waiting.body.results.map((d: { status: string }) => d.status)).toEqual(['Pending', 'Failed']);
    expect(waiting.body.results[1].attempts.at(-1).nextTry).toBeNull();
    expect((await client(account.key).get(`/Integration/Webhooks/${endpoint.id}`)).body.pendingDeliveries).toBe(2);

    down = false;
    const failedId = waiting.body.results[1].id;
    const redelivered = await request('POST', `/Integration/Webhooks/${endpoint.id}/deliveries/${failedId}/redeliver`, {
      key: account.key,
    });
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toMatchObject({ id: failedId, status: 'Pending' });
    const ok = await hooks.waitFor(2, (r) => hooks.received.indexOf(r) >= triesWhileFailing);
    expect(ok.map((r) => verified(endpoint.secret, r).data.batchId)).toEqual([first.body.batchId, second.body.batchId]);
    expect(ok[0].headers['webhook-id']).toBe(failedId);
    const after = await until('the endpoint to be Active again', async () => {
      const shown = await client(account.key).get(`/Integration/Webhooks/${endpoint.id}`);
      return shown.body.status === 'Active' && shown.body.pendingDeliveries === 0 ? shown.body : undefined;
    });
    expect(after.failingSince).toBeNull();

    expect(
      (
        await request('POST', `/Integration/Webhooks/${endpoint.id}/deliveries/msg_nope/redeliver`, {
          key: account.key,
        })
      ).status,
    ).toBe(404);
  }, 120_000);

  it('never slows capture: a receiver that hangs is cut at 10 s while sync batches answer at once', async () => {
    const { statuses, tookMs, ids, results } = await hung;
    expect(statuses).toEqual([200, 200, 200]);
    expect(tookMs).toBeLessThan(8_000);
    // The hung attempt is tried again under its id, and the three arrive in order.
    expect(ids[1]).toBe(ids[0]);
    const hungDelivery = results.at(-1)!;
    expect(hungDelivery.attempts[0]).toMatchObject({ httpStatus: null, error: 'no answer within 10 s' });
    const arrived = [...new Set(ids)];
    expect(arrived).toEqual(results.map((d) => d.id).reverse());
  }, 90_000);

  it('checks the address again at delivery time: an endpoint whose host now points inside is refused, never called', async () => {
    const account = await createAccount('hooks-rebind');
    const hooks = await receiver();
    const endpoint = await endpointFor(account, hooks);
    // As if its name had been re-pointed at a private address after the endpoint was accepted.
    await sql().query(`UPDATE webhook_endpoints SET url = 'https://10.0.0.7/hooks' WHERE id = $1`, [endpoint.id]);
    await client(account.key).post('/Integration/Events', { Events: goodBatch().events });
    const attempt = await until('a refused attempt', async () => {
      const deliveries = await client(account.key).get(`/Integration/Webhooks/${endpoint.id}/deliveries`);
      return deliveries.body.results[0]?.attempts[0];
    });
    expect(attempt).toMatchObject({
      httpStatus: null,
      error: '10.0.0.7 is not a public address',
      nextTry: expect.any(String),
    });
    await request('DELETE', `/Integration/Webhooks/${endpoint.id}`, { key: account.key });
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const account = await createAccount('hooks-redirect');
    const hooks = await receiver();
    hooks.answer = (index) => (index === 0 ? 307 : 200);
    const endpoint = await endpointFor(account, hooks);
    await client(account.key).post('/Integration/Events', { Events: goodBatch().events });
    const tries = await hooks.waitFor(2);
    expect(tries[1].headers['webhook-id']).toBe(tries[0].headers['webhook-id']);
    const deliveries = await until('the delivery to be recorded', async () => {
      const listed = await client(account.key).get(`/Integration/Webhooks/${endpoint.id}/deliveries`);
      return listed.body.results[0]?.status === 'Delivered' ? listed.body.results[0] : undefined;
    });
    expect(deliveries.attempts.map((a: { httpStatus: number }) => a.httpStatus)).toEqual([307, 200]);
  });

  it('deletes an endpoint: nothing more is sent, and its workflow ends', async () => {
    const account = await createAccount('hooks-delete');
    const hooks = await receiver();
    const endpoint = await endpointFor(account, hooks);
    const deleted = await request('DELETE', `/Integration/Webhooks/${endpoint.id}`, { key: account.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(endpoint.id);
    expect((await client(account.key).get(`/Integration/Webhooks/${endpoint.id}`)).status).toBe(404);
    expect((await request('DELETE', `/Integration/Webhooks/${endpoint.id}`, { key: account.key })).status).toBe(404);
    await client(account.key).post('/Integration/Events', { Events: goodBatch().events });
    const workflow = temporal.workflow.getHandle(`webhook-${endpoint.id}`);
    await until('the endpoint workflow to end', async () =>
      (await workflow.describe()).status.name === 'COMPLETED' ? true : undefined,
    );
    expect(hooks.received).toHaveLength(0);
  });

  it('runs one workflow per endpoint, webhook-<endpointId>, on the deliveries task queue, that operators find in the Temporal UI', async () => {
    const account = await createAccount('hooks-ui');
    const hooks = await receiver();
    const endpoint = await endpointFor(account, hooks);
    await client(account.key).post('/Integration/Events', { Events: goodBatch().events });
    await hooks.waitFor(1);
    const described = await temporal.workflow.getHandle(`webhook-${endpoint.id}`).describe();
    // Woken by a sync batch's step (on the sync task queue), it still runs where deliveries have their own slots.
    expect(described).toMatchObject({
      type: 'deliverWebhooks',
      status: { name: 'RUNNING' },
      taskQueue: deliveriesTaskQueueOf(TASK_QUEUE),
    });
    const history = await temporal.workflow.getHandle(`webhook-${endpoint.id}`).fetchHistory();
    const activities = history.events!.flatMap((e) =>
      e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType!.name] : [],
    );
    expect(activities).toContain('deliverWebhook');
  });
});
