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
  beforeAll(async () => {
    connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS });
  });
  afterAll(() => connection.close());

  const lost = (identity: string, since: number, staleMs: number, signal = new AbortController().signal) =>
    heartbeatsLost(connection, 'default', TASK_QUEUE, identity, since, staleMs, signal);
  // The supervisor's bulk worker process is node itself (setpriv execs it); its identity is pid@host and its role.
  const stackWorker = () => `${readLiveState(process.env.STACK_DIR!)!.workerPid!}@${os.hostname()} bulk`;

  it("are not lost while the stack's worker runs", async () => {
    // Its start as its heartbeats give it, once Temporal holds one (a beat every 5 s).
    let startMs = 0;
    await waitFor("the stack worker's first heartbeat", 15_000, async () => {
      const { workersInfo } = await connection.workflowService
        .listWorkers({ namespace: 'default', query: `TaskQueue = "${TASK_QUEUE}"` })
        .catch(() => ({ workersInfo: [] }));
      const beat = workersInfo?.find((info) => info.workerHeartbeat?.workerIdentity === stackWorker())?.workerHeartbeat;
      startMs = Number(beat?.startTime?.seconds ?? 0) * 1000;
      return startMs > 0;
    });
    // Watched for 22 s with a 10 s allowance: unseen, they would be lost by the check at 15 s.
    const watching = new AbortController();
    setTimeout(() => watching.abort(), 22_000);
    expect(await lost(stackWorker(), startMs, 10_000, watching.signal)).toBe(false);
  }, 50_000);

  it('are lost for a worker that never beat, once the allowance has passed', async () => {
    const started = Date.now();
    expect(await lost(`0@${os.hostname()}`, started, 1000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  }, 30_000);

  it('count only those of a worker started at `since` or later, not an earlier one of the same process', async () => {
    // A 12 s allowance, watched for 25 s: its beats every 5 s would keep it from being lost if counted.
    const watching = new AbortController();
    setTimeout(() => watching.abort(), 25_000);
    expect(await lost(stackWorker(), Date.now(), 12_000, watching.signal)).toBe(true);
  }, 40_000);

  it('are not asked about once the watch is aborted', async () => {
    expect(await lost('nobody', 0, 0, AbortSignal.abort())).toBe(false);
  });
});
