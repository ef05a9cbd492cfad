import { randomUUID } from 'node:crypto';
import { freePort } from '../../platform/net';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import pino from 'pino';
import { NativeConnection, Worker } from '@temporalio/worker';
import { keepWorkers, type KeepWorkersOptions } from '../../worker/kept-workers';

const BACKOFF = { initialMs: 50, maxMs: 200, resetAfterMs: 60_000 };

/** keepWorkers with real workers on the real dev server (the pinned CLI's); what it is told, written down. */
describe('keepWorkers', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createLocal({
      server: { executable: { type: 'existing-path', path: process.env.TEMPORAL_CLI_PATH! } },
    });
  });
  afterAll(() => env?.teardown());

  /** Every connection, worker and start keepWorkers went through, and the errors it logged. */
  function keeping(overrides: Partial<KeepWorkersOptions> = {}) {
    const stop = new AbortController();
    const seen = {
      connections: [] as NativeConnection[],
      workers: [] as Worker[][],
      running: [] as boolean[],
      errors: [] as string[],
      delays: [] as number[],
    };
    // The log lines keepWorkers writes, as an operator reads them.
    const logger = pino(
      { level: 'error' },
      {
        write: (line: string) => {
          const { err, delayMs } = JSON.parse(line) as { err: { message: string }; delayMs: number };
          seen.errors.push(err.message);
          seen.delays.push(delayMs);
        },
      },
    );
    const options: KeepWorkersOptions = {
      logger,
      stop: stop.signal,
      backoff: BACKOFF,
      connect: async () => {
        const connection = await NativeConnection.connect({ address: env.address });
        seen.connections.push(connection);
        return connection;
      },
      createWorkers: async (connection) => {
        const worker = await Worker.create({
          connection,
          taskQueue: `kept-${randomUUID()}`,
          activities: { noop: async () => undefined },
        });
        seen.workers.push([worker]);
        return [worker];
      },
      unheard: (_connection, _workers, _since, signal) =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined))),
      running: (again) => seen.running.push(again),
      ...overrides,
    };
    const kept = keepWorkers(options);
    return { stop, seen, kept };
  }

  const until = async (done: () => boolean, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('runs the workers until stopped, then drains them and closes the connection', async () => {
    const { stop, seen, kept } = keeping();
    await until(() => seen.running.length === 1);
    expect(seen.workers[0][0].getState()).toBe('RUNNING');
    stop.abort();
    await kept;
    expect(seen.workers[0][0].getState()).toBe('STOPPED');
    expect(seen.running).toEqual([false]);
    expect(seen.errors).toEqual([]);
    // A closed connection refuses new workers.
    await expect(
      Worker.create({
        connection: seen.connections[0],
        taskQueue: 'closed',
        activities: { noop: async () => undefined },
      }),
    ).rejects.toThrow(/closed/i);
  });

  it('a worker that ends without a stop is followed, after the backoff, by a new connection and workers', async () => {
    const { stop, seen, kept } = keeping();
    await until(() => seen.running.length === 1);
    seen.workers[0][0].shutdown();
    await until(() => seen.running.length === 2);
    expect(seen.running).toEqual([false, true]);
    expect(seen.errors).toEqual(['worker stopped polling without a shutdown request']);
    expect(seen.connections).toHaveLength(2);
    stop.abort();
    await kept;
    expect(seen.workers.flat().map((worker) => worker.getState())).toEqual(['STOPPED', 'STOPPED']);
  });

  it('workers the watchdog finds unheard are stopped and made anew; the watchdog of the new ones starts afresh', async () => {
    let watches = 0;
    const { stop, seen, kept } = keeping({
      unheard: (_connection, _workers, _since, signal) =>
        ++watches === 1
          ? Promise.resolve('Temporal has had no heartbeat of this worker for 20 s')
          : new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined))),
    });
    await until(() => seen.running.length === 2);
    expect(seen.errors).toEqual(['Temporal has had no heartbeat of this worker for 20 s']);
    expect(seen.workers[0][0].getState()).toBe('STOPPED');
    expect(seen.workers[1][0].getState()).toBe('RUNNING');
    stop.abort();
    await kept;
  });

  it('Temporal unreachable at start-up: tries again with a growing backoff until it answers', async () => {
    const nobody = `127.0.0.1:${await freePort()}`;
    let connects = 0;
    const { stop, seen, kept } = keeping({
      connect: async () => {
        const connection = await NativeConnection.connect({ address: ++connects <= 4 ? nobody : env.address });
        seen.connections.push(connection);
        return connection;
      },
    });
    await until(() => seen.running.length === 1);
    expect(seen.delays).toEqual([50, 100, 200, 200]);
    expect(seen.running).toEqual([false]);
    stop.abort();
    await kept;
  });

  it('a stop during the backoff ends it at once', async () => {
    const nobody = `127.0.0.1:${await freePort()}`;
    const { stop, seen, kept } = keeping({
      backoff: { initialMs: 60_000, maxMs: 60_000, resetAfterMs: 60_000 },
      connect: () => NativeConnection.connect({ address: nobody }),
    });
    await until(() => seen.errors.length === 1);
    const stoppedAt = Date.now();
    stop.abort();
    await kept;
    // The backoff is a minute: ending within seconds is ending at once, even on a busy machine.
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
  });
});
