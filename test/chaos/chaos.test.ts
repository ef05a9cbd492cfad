import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  type ScenarioOptions,
  type ScenarioReport,
} from '../../bench/chaos/scenarios';
import { buildWorkflowBundle } from '../../worker/bundle';

/**
 * `npm run chaos`'s scenarios at a smaller load. Each starts a stack of its own (killing a part of the
 * shared one would break the test files running beside this one) and removes it afterwards.
 */
describe('chaos: a part of the service SIGKILLed under load', () => {
  let bundleDir: string;
  let options: ScenarioOptions;

  beforeAll(async () => {
    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaos-bundle-'));
    // One bundle for every stack of this file: each would otherwise bundle the workflows at start-up.
    const bundle = await buildWorkflowBundle(path.join(bundleDir, 'workflow-bundle.js'));
    options = { events: 1000, batchSize: 250, clients: 2, settleSeconds: 90, env: { WORKFLOW_BUNDLE_PATH: bundle } };
  }, 120_000);

  afterAll(() => {
    if (bundleDir) fs.rmSync(bundleDir, { recursive: true, force: true });
  });

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

  it('50 clients ship one unit each from a lot of 30: 30 ship, 20 are refused with InsufficientInventory', async () => {
    const report = await concurrentConsumers({ clients: 50, units: 30, settleSeconds: 90, env: options.env });
    expectNothingLost(report);
    expect(report.details).toMatchObject({ shipped: 30, shipsCompleted: 30, otherwise: 0 });
    expect(
      Number(report.details.refused400InsufficientInventory) +
        Number(report.details.refusedAfter202InsufficientInventory),
    ).toBe(20);
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

  it('webhook delivery: receiver down for a while, worker killed mid-delivery: no notification lost or owed twice', async () => {
    const report = await deliveryWorkerKilled(options);
    expectNothingLost(report);
    expect(report.details).toMatchObject({ notificationsLost: 0, notificationsDuplicated: 0 });
    expect(Number(report.details.redeliveredSameId)).toBeGreaterThan(0);
  }, 300_000);

  it('a junk-body flood beside a keyed client: every junk body answered and closed unread, every batch lands once', async () => {
    const report = await junkBodyFlood(options);
    expectNothingLost(report);
    expect(report.acknowledged).toBe(report.batchesTried);
    expect(report.details.junkConnectionsLeftOpen).toBe(0);
    // Far less than the flood sent: a body read to its end would put it near junkMBOutTotal.
    expect(Number(report.details.apiMBReadDuringFlood)).toBeLessThan(Number(report.details.junkMBOutTotal) / 4);
  }, 300_000);

  it('a wrong-key flood behind one proxy: no valid key refused, the neighbour counted apart', async () => {
    const report = await wrongKeyFloodBehindProxy(options);
    expectNothingLost(report);
    expect(report.acknowledged).toBe(report.batchesTried);
    expect(report.details).toMatchObject({ keyedAnswered429: 0, neighbourWrongKey: 401, keyedFromFlooderAfter: 200 });
  }, 300_000);

  it("a neighbour's burst beside one-event calls: both accounts' batches land once, the calls measured beside it", async () => {
    const report = await neighbourBurst(options, 4000);
    expectNothingLost(report);
    expect(report.acknowledged).toBe(report.batchesTried);
    expect(report.details.burst).toMatchObject({ lost: 0, duplicated: 0, stuck: 0, acknowledgedNotCompleted: 0 });
    expect(report.details).toMatchObject({ burstEvents: 4000, burstBatches: 16 });
    expect(report.details.callsBesideBurst).toBeGreaterThanOrEqual(3);
  }, 300_000);
});
