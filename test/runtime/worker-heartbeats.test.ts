import os from 'node:os';
import { NativeConnection } from '@temporalio/worker';
import { TASK_QUEUE } from '../../platform/config';
import { waitFor } from '../../platform/net';
import { readLiveState } from '../../supervisor/state';
import { heartbeatsLost } from '../../worker/heartbeat-watchdog';

/**
 * heartbeatsLost, against the test stack's Temporal: worker/main.ts starts its workers again on a new
 * connection when it answers true, since the SDK then sends no more heartbeats on that connection.
 */
describe("a worker's heartbeats as Temporal holds them", () => {
  let connection: NativeConnection;
  // Asked every second, so a verdict comes within a second of its allowance (the stack's worker beats every 5 s).
  const lost = (identity: string, since: number, staleMs: number, signal = new AbortController().signal) =>
    heartbeatsLost(connection, 'default', TASK_QUEUE, identity, since, staleMs, 1000, signal);
  // The supervisor's bulk worker process is node itself (setpriv execs it); its identity is pid@host and its role.
  const stackWorker = () => `${readLiveState(process.env.STACK_DIR!)!.workerPid!}@${os.hostname()} bulk`;

  /** Watches `lost` for `watchMs`; the two long watches below run side by side, each test awaits its own. */
  const watched = (watchMs: number, watch: (signal: AbortSignal) => Promise<boolean>): Promise<boolean> => {
    const watching = new AbortController();
    setTimeout(() => watching.abort(), watchMs);
    const outcome = watch(watching.signal);
    outcome.catch(() => undefined); // rejected before its test awaits it is that test's failure, not an unhandled one
    return outcome;
  };
  let whileRunning: Promise<boolean>;
  let sinceLater: Promise<boolean>;

  beforeAll(async () => {
    connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS });
    // Its start as its heartbeats give it, once Temporal holds one (a beat every 5 s); then watched for 15 s
    // with a 10 s allowance: unseen, they would be lost by the check at 11 s.
    whileRunning = (async () => {
      let startMs = 0;
      await waitFor("the stack worker's first heartbeat", 15_000, async () => {
        const { workersInfo } = await connection.workflowService
          .listWorkers({ namespace: 'default', query: `TaskQueue = "${TASK_QUEUE}"` })
          .catch(() => ({ workersInfo: [] }));
        const beat = workersInfo?.find(
          (info) => info.workerHeartbeat?.workerIdentity === stackWorker(),
        )?.workerHeartbeat;
        startMs = Number(beat?.startTime?.seconds ?? 0) * 1000;
        return startMs > 0;
      });
      return watched(15_000, (signal) => lost(stackWorker(), startMs, 10_000, signal));
    })();
    whileRunning.catch(() => undefined);
    // A 12 s allowance, watched for 18 s: its beats every 5 s would keep it from being lost if counted.
    sinceLater = watched(18_000, (signal) => lost(stackWorker(), Date.now(), 12_000, signal));
  });
  afterAll(async () => {
    await Promise.allSettled([whileRunning, sinceLater]);
    await connection.close();
  }, 60_000);

  // First: it runs while the two watches above do.
  it('are lost for a worker that never beat, once the allowance has passed', async () => {
    const started = Date.now();
    expect(await lost(`0@${os.hostname()}`, started, 1000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  }, 30_000);

  it("are not lost while the stack's worker runs", async () => {
    expect(await whileRunning).toBe(false);
  }, 50_000);

  it('count only those of a worker started at `since` or later, not an earlier one of the same process', async () => {
    expect(await sinceLater).toBe(true);
  }, 40_000);

  it('are not asked about once the watch is aborted', async () => {
    expect(await lost('nobody', 0, 0, AbortSignal.abort())).toBe(false);
  });
});
