import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { isAlive } from '../../supervisor/child-process';
import { waitFor } from '../../platform/net';
import { readLiveState } from '../../supervisor/state';
import { killStacks, processesUnder, spawnStack, startStack, type Stack } from '../helpers/stack';

/** Opens a connection to the API and leaves a request on it unfinished: its body never comes. */
function holdRequestOpen(apiUrl: string): Promise<{ socket: net.Socket; closed: Promise<void> }> {
  const { hostname, port } = new URL(apiUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        'POST /Integration/Events HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"Events": [',
      );
      resolve({ socket, closed: new Promise((done) => socket.once('close', () => done())) });
    });
    socket.once('error', reject);
    socket.on('error', () => undefined); // once connected, the API resetting it is the point
    socket.resume();
  });
}

/** The process that runs supervisor/start.ts's code: `pid` itself, or the last of its descendants a launcher started. */
function supervisorNode(pid: number): number {
  const children = (parent: number) =>
    fs
      .readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
      .filter((child) => fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('supervisor/start.ts'));
  let node = pid;
  for (let next = children(node); next.length > 0; next = children(node)) node = next[0];
  return node;
}

describe('a stop never waits', () => {
  const stacks: Stack[] = [];
  const start = async () => {
    const stack = await startStack();
    stacks.push(stack);
    return stack;
  };

  // The two stacks the first two tests stop start side by side, each test awaiting its own.
  let starts: Promise<Stack>[] = [];
  beforeAll(() => {
    starts = [start(), start()];
    for (const starting of starts) starting.catch(() => undefined); // its test reports it
  });
  afterAll(async () => {
    await Promise.allSettled(starts);
    killStacks(stacks);
  }, 240_000);

  it('SIGTERM to the supervisor ends the whole process tree within 10 s while a request is held open', async () => {
    const stack = await starts[0];
    const { pid, apiPid, workerPid, interactiveWorkerPid, postgresPid, temporalPid, apiUrl } = stack.state;
    const tree = [pid, apiPid!, workerPid!, interactiveWorkerPid!, postgresPid!, temporalPid!];
    const held = await holdRequestOpen(apiUrl);
    // An idle keep-alive connection too: it must not hold the API for its 65 s keepAliveTimeout.
    await fetch(`${apiUrl}/healthz`).then((response) => response.text());
    await new Promise((resolve) => setTimeout(resolve, 500));

    const sentAt = Date.now();
    process.kill(pid, 'SIGTERM');
    await waitFor('the process tree to end', 30_000, async () => tree.every((p) => !isAlive(p)));
    const stopMs = Date.now() - sentAt;
    console.log(`stop with a request held open: ${stopMs} ms`);
    expect(stopMs).toBeLessThan(10_000);
    await held.closed;
  }, 300_000);

  it('nor on a Temporal being restarted: SIGTERM during the restart leaves no server behind', async () => {
    const stack = await starts[1];
    const { pid, apiPid, workerPid, temporalPid } = stack.state;
    process.kill(temporalPid!, 'SIGKILL');
    // The restart waits 0.5 s, then the new dev server takes a second or two to answer.
    await waitFor('the new Temporal process', 10_000, async () =>
      processesUnder(stack.dir).some((p) => p !== temporalPid && p !== stack.state.postgresPid),
    );

    const sentAt = Date.now();
    process.kill(pid, 'SIGTERM');
    await waitFor('the process tree to end', 30_000, async () =>
      [pid, apiPid!, workerPid!, ...processesUnder(stack.dir)].every((p) => !isAlive(p)),
    );
    const stopMs = Date.now() - sentAt;
    console.log(`stop during a Temporal restart: ${stopMs} ms`);
    expect(stopMs).toBeLessThan(10_000);
  }, 300_000);

  it('nor during start-up: SIGTERM while Temporal is still starting, to a supervisor busy for half a second, ends it cleanly and leaves neither PostgreSQL nor Temporal behind', async () => {
    const { dir, child: supervisor } = spawnStack();
    const exited = new Promise<number | null>((resolve) => supervisor.once('exit', (code) => resolve(code)));
    const temporalDb = path.join(dir, 'temporal.db');
    try {
      // PostgreSQL is up once Temporal is being started; the dev server takes seconds to answer.
      await waitFor(
        'temporal server start-dev to be spawned',
        120_000,
        async () => processesUnder(temporalDb).length > 0,
      );
      expect(readLiveState(dir)).toBeUndefined(); // still starting: runtime.json is written once the API is up
      // A busy event loop, as on a loaded machine: the signal must wait for it, not be answered by a SIGKILL.
      const node = supervisorNode(supervisor.pid!);
      process.kill(node, 'SIGSTOP');
      supervisor.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 500));
      process.kill(node, 'SIGCONT');
      expect(await exited).toBe(0);
      await waitFor('every server under the data dir to end', 15_000, async () => processesUnder(dir).length === 0);
    } finally {
      for (const p of processesUnder(dir)) process.kill(p, 'SIGKILL');
      if (supervisor.exitCode === null) supervisor.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
