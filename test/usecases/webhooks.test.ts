import { createNamedQuery } from '../../db/repositories/epcis-queries';
import { markWebhookFailing } from '../../db/repositories/webhooks';
import type { ScheduleRanges } from '../../domain/epcis/subscription-schedule';
import { deleteQuery, deleteWebhook, registerWebhook, subscribe, type EndpointServices } from '../../usecases/webhooks';
import { createAccount, type TestAccount } from '../factories/accounts';
import { randomUUID } from 'node:crypto';
import { subscriptionsLock } from '../../db/repositories/epcis-queries';
import { activityDeps, models, rowCounts, sql } from '../helpers/db';
import { MockActivityEnvironment } from '@temporalio/testing';
import { persistEvents } from '../../activities/persist-events';
import { completeBatch } from '../../db/repositories/batch-notifications';
import type { EventPayload } from '../../domain/events';
import { storedBatch } from '../factories/batches';
import { commission, line, locationPayload, productPayload, uid } from '../factories/trace-events';

/**
 * Registering webhook endpoints and EPCIS subscriptions, called directly against PostgreSQL. Temporal's
 * part is the services' ports: here they record what the use case asked of them (the HTTP tests run them).
 */
describe('register a webhook or an EPCIS subscription (use cases)', () => {
  let account: TestAccount;
  let woken: string[];
  let scheduled: [string, ScheduleRanges | null][];
  /** A refused Schedule, or one made whose call then failed all the same (its deadline passed meanwhile). */
  let scheduleFails: false | 'refused' | 'madeThenFailed';
  const services = (initialReportEvents = 100): EndpointServices => ({
    sequelize: models(),
    allowedHosts: ['127.0.0.1'],
    initialReportEvents,
    wake: async (id) => void woken.push(id),
    schedule: async (id, ranges) => {
      if (scheduleFails === 'refused' && ranges) throw new Error('Temporal refused the schedule');
      scheduled.push([id, ranges]);
      if (scheduleFails === 'madeThenFailed' && ranges) throw new Error('deadline exceeded');
    },
  });
  const counted = ['webhook_endpoints', 'epcis_subscriptions'];
  const endpointRow = async (id: string) =>
    (await sql().query('SELECT url, events, deleted_at FROM webhook_endpoints WHERE id = $1', [id])).rows[0];
  /** An endpoint of the account for batch.completed at `url`, registered through the use case. */
  const registered = async (url: string) => {
    const outcome = await registerWebhook(services(), { accountId: account.id, url, events: ['batch.completed'] });
    if (outcome.kind !== 'registered') throw new Error(`not registered: ${outcome.kind}`);
    return outcome;
  };

  beforeAll(async () => {
    account = await createAccount('usecase-webhooks');
  });
  beforeEach(() => {
    woken = [];
    scheduled = [];
    scheduleFails = false;
  });

  it('registers an endpoint with its secret and wakes its workflow; deleting it marks the row and wakes it again', async () => {
    const outcome = await registered('http://127.0.0.1:9/hooks');
    expect(outcome.secret).toMatch(/^whsec_/);
    expect(await endpointRow(outcome.endpoint.id)).toMatchObject({
      url: 'http://127.0.0.1:9/hooks',
      events: ['batch.completed'],
      deleted_at: null,
    });
    expect(woken).toEqual([outcome.endpoint.id]);

    expect(await deleteWebhook(services(), account.id, outcome.endpoint.id)).toMatchObject({ id: outcome.endpoint.id });
    expect((await endpointRow(outcome.endpoint.id)).deleted_at).not.toBeNull();
    expect(woken).toEqual([outcome.endpoint.id, outcome.endpoint.id]);
    expect(await deleteWebhook(services(), account.id, outcome.endpoint.id)).toBeNull();
  });

  it("an endpoint whose retries ran out is failing for its last attempt's error, not for Temporal's giving up; that attempt foresees no next try", async () => {
    const endpointId = (await registered('http://127.0.0.1:9/failing')).endpoint.id;
    const delivery = async (id: string, error?: string) => {
      await sql().query(
        `INSERT INTO webhook_deliveries (id, endpoint_id, type, body, source_key) VALUES ($1, $2, 'batch.completed', '{}', $1)`,
        [id, endpointId],
      );
      if (error)
        // Foreseen from the retry policy; Temporal, deciding a moment later, found no time left for it.
        await sql().query(
          "INSERT INTO webhook_attempts (delivery_id, http_status, error, next_attempt_at) VALUES ($1, 500, $2, now() + interval '5 seconds')",
          [id, error],
        );
    };
    const failing = async () =>
      (await sql().query('SELECT failing_reason FROM webhook_endpoints WHERE id = $1', [endpointId])).rows[0]
        .failing_reason;
    const gaveUp = 'Not enough time to schedule next retry before activity ScheduleToClose timeout, giving up retrying';

    // An attempt outlasted the retry window: Temporal's failure says it gave up, the attempt row says why.
    await delivery(`${endpointId}-1`, 'the receiver answered 500');
    await markWebhookFailing(models(), endpointId, `${endpointId}-1`, gaveUp);
    expect(await failing()).toBe('the receiver answered 500');
    const { rows } = await sql().query('SELECT next_attempt_at FROM webhook_attempts WHERE delivery_id = $1', [
      `${endpointId}-1`,
    ]);
    expect(rows).toEqual([{ next_attempt_at: null }]);
    // No attempt recorded: Temporal's reason is all there is.
    await delivery(`${endpointId}-2`);
    await markWebhookFailing(models(), endpointId, `${endpointId}-2`, gaveUp);
    expect(await failing()).toBe(gaveUp);
  });

  it('refuses a URL to a private address, storing and waking nothing', async () => {
    const before = await rowCounts(account.id, counted);
    const outcome = await registerWebhook(services(), {
      accountId: account.id,
      url: 'https://10.1.2.3/hooks',
      events: ['batch.failed'],
    });
    expect(outcome).toEqual({ kind: 'unusableUrl', problem: expect.stringMatching(/^Url must be a public address/) });
    expect(await rowCounts(account.id, counted)).toEqual(before);
    expect(woken).toEqual([]);
  });

  it('subscribes on a schedule: the schedule is made before the commit; one refused, or made but failed, stores nothing and is deleted', async () => {
    await createNamedQuery(models(), account.id, 'shipped', { EQ_bizStep: 'shipping' }, { EQ_bizStep: ['shipping'] });
    const request = {
      accountId: account.id,
      queryName: 'shipped',
      epcFormat: 'Always_GS1_Digital_Link' as const,
      input: { dest: 'http://127.0.0.1:9/reports', schedule: { minute: '0' } },
    };
    const before = await rowCounts(account.id, counted);
    scheduleFails = 'refused';
    await expect(subscribe(services(), request)).rejects.toThrow('Temporal refused the schedule');
    expect(await rowCounts(account.id, counted)).toEqual(before);
    expect(woken).toEqual([]);
    // Deleted whether or not it was made: a Schedule left behind would report for no subscription.
    expect(scheduled).toEqual([[expect.any(String), null]]);

    scheduleFails = 'madeThenFailed';
    scheduled = [];
    await expect(subscribe(services(), request)).rejects.toThrow('deadline exceeded');
    expect(await rowCounts(account.id, counted)).toEqual(before);
    const [[made, ranges], ...rest] = scheduled;
    expect(ranges).not.toBeNull();
    expect(rest).toEqual([[made, null]]);

    scheduleFails = false;
    scheduled = [];
    const outcome = await subscribe(services(), request);
    if (outcome.kind !== 'subscribed') throw new Error(`not subscribed: ${outcome.kind}`);
    expect(outcome.subscription).toMatchObject({ query_name: 'shipped', stream: false, schedule: { minute: '0' } });
    expect(scheduled).toEqual([[outcome.subscription.id, expect.objectContaining({ minute: [expect.anything()] })]]);
    expect(woken).toEqual([outcome.subscription.id]);

    // Deleting the query ends its subscription: the endpoint row is marked, its schedule deleted, its workflow woken.
    expect(await deleteQuery(services(), account.id, 'shipped')).toBe(true);
    expect((await endpointRow(outcome.subscription.id)).deleted_at).not.toBeNull();
    expect(scheduled.at(-1)).toEqual([outcome.subscription.id, null]);
    expect(await deleteQuery(services(), account.id, 'shipped')).toBe(false);
  });

  /** A batch of two commissions of the account, persisted as the pipeline does, not completed yet. */
  const persistedBatch = async (own: TestAccount) => {
    const site = locationPayload(uid('SITE'));
    const product = productPayload(uid('COD'));
    const events = [1, 2].map((day) => commission(site, `2024-07-0${day}T06:00:00`, [line(product, uid('L'), 5)]));
    const batch = await storedBatch(own.id, events as unknown as EventPayload[]);
    await new MockActivityEnvironment().run(persistEvents(activityDeps()), {
      batchId: batch.id,
      accountId: own.id,
      accountName: own.name,
    });
    return batch;
  };
  /** Whether `promise` is still pending after a moment: waiting, here, for a lock. */
  const stillWaiting = async (promise: Promise<unknown>) =>
    Promise.race([promise.then(() => false), new Promise((resolve) => setTimeout(() => resolve(true), 500))]);
  /** Each delivery owed to the endpoint: its source key and how many events its report holds. */
  const deliveriesOf = async (endpointId: string) =>
    (
      await sql().query('SELECT source_key, body FROM webhook_deliveries WHERE endpoint_id = $1', [endpointId])
    ).rows.map((row) => [row.source_key, JSON.parse(row.body).epcisBody.queryResults.resultsBody.eventList.length]);

  it('a stream from initialRecordTime owes one report of what matched since, and is refused when that is more than a first report carries', async () => {
    const own = await createAccount('usecase-initial-report');
    const since = new Date();
    const batch = await persistedBatch(own);
    await completeBatch(models(), batch.id, {});
    await createNamedQuery(models(), own.id, 'all', {}, {});
    const request = { accountId: own.id, queryName: 'all', epcFormat: 'Always_EPC_URN' as const };
    const input = { dest: 'http://127.0.0.1:9/r', stream: true as const, initialRecordTime: since.toISOString() };

    const before = await rowCounts(own.id, counted);
    expect(await subscribe(services(1), { ...request, input })).toEqual({
      kind: 'refused',
      code: 'epcis-initial-report-too-large',
      issues: [{ pointer: '/initialRecordTime', message: expect.stringContaining('More than 1 events') }],
    });
    expect(await rowCounts(own.id, counted)).toEqual(before);

    const outcome = await subscribe(services(2), { ...request, input });
    if (outcome.kind !== 'subscribed') throw new Error(`not subscribed: ${outcome.kind}`);
    expect(await deliveriesOf(outcome.subscription.id)).toEqual([['initial', 2]]);
    expect(woken).toEqual([outcome.subscription.id]);
  });

  // Without the lock each side read before the other committed: the batch was reported by neither.
  it('a subscription created while a batch completes waits for it, and its first report holds that batch', async () => {
    const own = await createAccount('usecase-race-creation');
    const since = new Date();
    const batch = await persistedBatch(own);
    await createNamedQuery(models(), own.id, 'all', {}, {});
    const completing = await sql().connect();
    try {
      await completing.query('BEGIN');
      await completing.query(`SELECT ${subscriptionsLock('$1::text', 'completion')}`, [own.id]);
      await completing.query("UPDATE batches SET status = 'Completed', completed_at = now() WHERE id = $1", [batch.id]);
      const input = { dest: 'http://127.0.0.1:9/r', stream: true as const, initialRecordTime: since.toISOString() };
      const request = { accountId: own.id, queryName: 'all', epcFormat: 'Always_EPC_URN' as const, input };
      const subscribing = subscribe(services(), request);
      expect(await stillWaiting(subscribing)).toBe(true);
      await completing.query('COMMIT');
      const outcome = await subscribing;
      if (outcome.kind !== 'subscribed') throw new Error(`not subscribed: ${outcome.kind}`);
      expect(await deliveriesOf(outcome.subscription.id)).toEqual([['initial', 2]]);
    } finally {
      completing.release();
    }
  });

  it('a batch completing while a stream subscription is created waits for it, and owes the subscription its report', async () => {
    const own = await createAccount('usecase-race-completion');
    const batch = await persistedBatch(own);
    await createNamedQuery(models(), own.id, 'all', {}, {});
    const subscriptionId = randomUUID();
    const creating = await sql().connect();
    try {
      await creating.query('BEGIN');
      await creating.query(`SELECT ${subscriptionsLock('$1::text', 'creation')}`, [own.id]);
      await creating.query(
        `INSERT INTO webhook_endpoints (id, account_id, url, events, secret, signing) VALUES ($1, $2, 'http://127.0.0.1:9/r', '{}', '', 'gs1')`,
        [subscriptionId, own.id],
      );
      await creating.query(
        `INSERT INTO epcis_subscriptions (id, account_id, query_name, stream, report_if_empty, initial_record_time, epc_format)
         VALUES ($1, $2, 'all', true, false, now(), 'Always_EPC_URN')`,
        [subscriptionId, own.id],
      );
      const completing = completeBatch(models(), batch.id, {});
      expect(await stillWaiting(completing)).toBe(true);
      await creating.query('COMMIT');
      expect((await completing).result.changed).toBe(true);
      expect(await deliveriesOf(subscriptionId)).toEqual([[`batch:${batch.id}`, 2]]);
    } finally {
      creating.release();
    }
  });

  it('refuses a subscription with both stream and schedule, or to an unknown query, naming the pointer', async () => {
    await createNamedQuery(models(), account.id, 'all', {}, {});
    const before = await rowCounts(account.id, counted);
    const input = { dest: 'http://127.0.0.1:9/r', stream: true as const, schedule: { hour: '1' } };
    const epcFormat = 'Always_EPC_URN' as const;
    expect(await subscribe(services(), { accountId: account.id, queryName: 'all', epcFormat, input })).toEqual({
      kind: 'refused',
      code: 'epcis-stream-or-schedule',
      issues: [{ pointer: '/stream', message: expect.any(String) }],
    });
    expect(await subscribe(services(), { accountId: account.id, queryName: 'none', epcFormat, input })).toEqual({
      kind: 'unknownQuery',
    });
    expect(await rowCounts(account.id, counted)).toEqual(before);
    expect([woken, scheduled]).toEqual([[], []]);
  });
});
