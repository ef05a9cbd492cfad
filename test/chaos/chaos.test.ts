import {
  concurrentConsumers,
  apiKilled,
  deliveryWorkerKilled,
  junkBodyFlood,
  neighbourBurst,
  postgresKilled,
  temporalKilled,
  killedInLocalStep,
  workerKilledInPersist,
  wrongKeyFloodBehindProxy,
  stackEnvOf,
  type ScenarioOptions,
  type ScenarioReport,
} from '../../bench/chaos/scenarios';
import { SharedStacks } from '../../bench/chaos/stack';

/**
 * `npm run chaos`'s scenarios at a smaller load, on stacks of this file's own (killing a part of the
 * suite's stack would break the test files running beside this one). A stack is passed on from one
 * scenario to the next that asks for the same environment: each counts its own account's batches, and
 * the supervisor has restarted what the one before killed. So the scenarios that kill nothing run first,
 * then the kills, PostgreSQL's and Temporal's last. The three environments' stacks start one after the
 * other from the first scenario on, each while the scenarios before it run. Every stack inherits the
 * suite's workflow bundle (WORKFLOW_BUNDLE_PATH, test/helpers/global-setup.ts).
 */
describe('chaos: a part of the service SIGKILLed under load', () => {
  const stacks = new SharedStacks();
  // The delivery scenario's retry window for every scenario of the shared stack (no other one has a webhook).
  const options: ScenarioOptions = {
    events: 1000,
    batchSize: 250,
    clients: 2,
    settleSeconds: 90,
    env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_SECONDS: '300' },
    stacks,
  };
  beforeAll(() => {
    for (const first of ['worker', 'wrong-keys', 'consume'] as const) stacks.prepare(stackEnvOf(first, options.env));
  });

  afterAll(() => stacks.stop(), 120_000);

  const expectNothingLost = (report: ScenarioReport) => {
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ ok: true, lost: 0, duplicated: 0, stuck: 0, acknowledgedNotCompleted: 0 });
  };

  it('a worker killed inside persistEvents: the step runs again, every batch lands once', async () => {
    const report = await workerKilledInPersist(options);
    expectNothingLost(report);
    expect(report.details.killLandedInPersist).toBe(true);
    expect(report.acknowledged).toBe(report.batchesTried);
  }, 300_000);

  it('a wrong-key flood behind one proxy: no valid key refused, the neighbour counted apart', async () => {
    const report = await wrongKeyFloodBehindProxy(options);
    expectNothingLost(report);
    expect(report.acknowledged).toBe(report.batchesTried);
    expect(report.details).toMatchObject({ keyedAnswered429: 0, neighbourWrongKey: 401, keyedFromFlooderAfter: 200 });
  }, 300_000);

  it('50 clients ship one unit each from a lot of 30: 30 ship, 20 are refused with InsufficientInventory', async () => {
    const report = await concurrentConsumers({ clients: 50, units: 30, settleSeconds: 90, env: options.env, stacks });
    expectNothingLost(report);
    expect(report.details).toMatchObject({ shipped: 30, shipsCompleted: 30, otherwise: 0 });
    expect(
      Number(report.details.refused400InsufficientInventory) +
        Number(report.details.refusedAfter202InsufficientInventory),
    ).toBe(20);
  }, 300_000);

  it('a junk-body flood beside a keyed client: every junk body answered and closed unread, every batch lands once', async () => {
    const report = await junkBodyFlood(options);
    expectNothingLost(report);
    expect(report.acknowledged).toBe(report.batchesTried);
    expect(report.details.junkConnectionsLeftOpen).toBe(0);
    // Far less than the flood sent: a body read to its end would put it near junkMBOutTotal.
    expect(Number(report.details.apiMBReadDuringFlood)).toBeLessThan(Number(report.details.junkMBOutTotal) / 4);
  }, 300_000);

  it("a neighbour's burst beside one-event calls: both accounts' batches land once, the calls measured beside it", async () => {
    const report = await neighbourBurst(options, 4000);
    expectNothingLost(report);
    expect(report.acknowledged).toBe(report.batchesTried);
    expect(report.details.burst).toMatchObject({ lost: 0, duplicated: 0, stuck: 0, acknowledgedNotCompleted: 0 });
    expect(report.details).toMatchObject({ burstEvents: 4000, burstBatches: 16 });
    expect(report.details.callsBesideBurst).toBeGreaterThanOrEqual(3);
  }, 300_000);

  it('webhook delivery: receiver down for a while, worker killed mid-delivery: no notification lost or owed twice', async () => {
    const report = await deliveryWorkerKilled(options);
    expectNothingLost(report);
    expect(report.details).toMatchObject({ notificationsLost: 0, notificationsDuplicated: 0 });
    expect(Number(report.details.redeliveredSameId)).toBeGreaterThan(0);
  }, 300_000);

  it.each(['worker', 'api'] as const)(
    "the %s killed inside a small batch's local persistEvents: the step runs again, every batch lands once",
    async (part) => {
      const report = await killedInLocalStep(options, part);
      expectNothingLost(report);
      expect(report.details.killLandedInLocalPersist).toBe(true);
      expect(report.acknowledged).toBe(report.batchesTried);
    },
    300_000,
  );

  it('an API killed with async requests in flight: clients retrying with their Idempotency-Key lose nothing', async () => {
    const report = await apiKilled(options);
    expectNothingLost(report);
    expect(report.details.inFlightAtKill).toBeGreaterThan(0);
    expect(report.acknowledged).toBe(report.batchesTried);
  }, 300_000);

  it('PostgreSQL killed mid-load: restarted, and every acknowledged batch completes once', async () => {
    const report = await postgresKilled(options);
    expectNothingLost(report);
    expect(report.serviceSurvived).toBe(true);
  }, 300_000);

  it('Temporal killed mid-load: restarted, and every acknowledged batch completes once', async () => {
    const report = await temporalKilled(options);
    expectNothingLost(report);
    expect(report.serviceSurvived).toBe(true);
  }, 300_000);
});
