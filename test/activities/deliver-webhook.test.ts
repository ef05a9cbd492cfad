import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import { createWebhookEndpoint, oweAccountNotification } from '../../db/repositories/webhooks';
import { createAccount, type TestAccount } from '../factories/accounts';
import { activityDeps, models, sql } from '../helpers/db';
import { startReceiver, type Receiver } from '../helpers/receiver';

/** deliverWebhook, one attempt at a time, against a real PostgreSQL and a real receiver on loopback; no Temporal server. */
describe('deliverWebhook', () => {
  let account: TestAccount;
  let receiver: Receiver;
  let activities: ReturnType<typeof createActivities>;

  beforeAll(async () => {
    account = await createAccount('deliver');
    receiver = await startReceiver();
    activities = createActivities(activityDeps({ allowedHosts: ['127.0.0.1'], retrySeconds: 259_200 }));
  });
  afterAll(() => receiver.close());

  /** An endpoint of the account's with one notification owed; returns the endpoint and the delivery's ids. */
  async function owedNotification(): Promise<{ endpointId: string; deliveryId: string }> {
    const sequelize = models();
    const endpointId = randomUUID();
    await createWebhookEndpoint(sequelize, {
      id: endpointId,
      accountId: account.id,
      url: receiver.url,
      events: ['recall.received'],
      secret: `whsec_${Buffer.from(randomUUID()).toString('base64')}`,
    });
    await sequelize.transaction((transaction) =>
      oweAccountNotification(
        sequelize,
        { accountId: account.id, type: 'recall.received', sourceKey: `test:${endpointId}`, data: { id: endpointId } },
        transaction,
      ),
    );
    const { rows } = await sql().query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1', [
      endpointId,
    ]);
    return { endpointId, deliveryId: rows[0].id };
  }

  const attemptsOf = async (deliveryId: string) =>
    (
      await sql().query<{ http_status: number | null; error: string | null; next_attempt_at: Date | null }>(
        'SELECT http_status, error, next_attempt_at FROM webhook_attempts WHERE delivery_id = $1 ORDER BY id',
        [deliveryId],
      )
    ).rows;

  const statusOf = async (deliveryId: string) =>
    (await sql().query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE id = $1', [deliveryId])).rows[0]
      .status;

  it('posts the owed body signed the Standard Webhooks way and records the delivery Delivered', async () => {
    const owed = await owedNotification();
    receiver.answer = () => 200;
    const before = receiver.received.length;
    await expect(new MockActivityEnvironment().run(activities.deliverWebhook, owed)).resolves.toBe('Delivered');
    const [request] = receiver.received.slice(before);
    expect(request.headers['webhook-id']).toBe(owed.deliveryId);
    expect(request.headers['webhook-signature']).toMatch(/^v1,/);
    expect(JSON.parse(request.body)).toMatchObject({ type: 'recall.received', data: { id: owed.endpointId } });
    expect(await statusOf(owed.deliveryId)).toBe('Delivered');
    expect(await attemptsOf(owed.deliveryId)).toEqual([{ http_status: 200, error: null, next_attempt_at: null }]);
  });

  it('a receiver answering 503 is a retryable failure, the attempt recorded with when Temporal tries again', async () => {
    const owed = await owedNotification();
    receiver.answer = () => 503;
    const before = Date.now();
    const env = new MockActivityEnvironment({
      attempt: 3,
      scheduledTimestampMs: before,
      scheduleToCloseTimeoutMs: 259_200_000,
      retryPolicy: { initialInterval: 1000, backoffCoefficient: 2, maximumInterval: 3_600_000 },
    });
    const failure = await env.run(activities.deliverWebhook, owed).catch((error: unknown) => error);
    const after = Date.now();
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'WebhookNotDelivered', nonRetryable: false, details: [{ httpStatus: 503 }] });
    expect(await statusOf(owed.deliveryId)).toBe('Pending');
    const [attempt] = await attemptsOf(owed.deliveryId);
    expect(attempt).toMatchObject({ http_status: 503, error: 'the receiver answered 503' });
    // The third attempt's backoff: 1 s × 2² = 4 s after it failed.
    const next = attempt.next_attempt_at!.getTime();
    expect(next).toBeGreaterThanOrEqual(before + 4000);
    expect(next).toBeLessThanOrEqual(after + 4000);
  });

  it('the attempt after which the retry schedule has run out records no next attempt', async () => {
    const owed = await owedNotification();
    receiver.answer = () => 500;
    const env = new MockActivityEnvironment({
      attempt: 80,
      // Scheduled 72 h ago, less the last backoff: the next try would fall after the schedule-to-close timeout.
      scheduledTimestampMs: Date.now() - 259_200_000 + 60_000,
      scheduleToCloseTimeoutMs: 259_200_000,
      retryPolicy: { initialInterval: 1000, backoffCoefficient: 2, maximumInterval: 3_600_000 },
    });
    await expect(env.run(activities.deliverWebhook, owed)).rejects.toBeInstanceOf(ApplicationFailure);
    expect(await attemptsOf(owed.deliveryId)).toEqual([
      { http_status: 500, error: 'the receiver answered 500', next_attempt_at: null },
    ]);
  });

  it('a delivery no longer owed (delivered on an earlier attempt) is not posted again', async () => {
    const owed = await owedNotification();
    receiver.answer = () => 200;
    await new MockActivityEnvironment().run(activities.deliverWebhook, owed);
    const before = receiver.received.length;
    await expect(new MockActivityEnvironment().run(activities.deliverWebhook, owed)).resolves.toBe('NotOwed');
    expect(receiver.received.length).toBe(before);
  });
});
