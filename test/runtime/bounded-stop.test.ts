import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { isAlive } from '../../supervisor/child-process';
import { waitFor } from '../../platform/net';
import { readLiveState, statePath } from '../../supervisor/state';
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

/**
 * The stacks of both parts below, whatever became of them killed and removed at the end. The part on
 * SIGKILL leaves the stack it started last running, and the first stop below takes it: one start fewer.
 */
const stacks: Stack[] = [];
const start = async (env?: NodeJS.ProcessEnv) => {
  const stack = await startStack(env);
  stacks.push(stack);
  return stack;
};
/** Still running once the SIGKILL part is done, for the first stop. */
let leftRunning: Stack | undefined;
// The stack the stop during a Temporal restart takes starts at once, beside the tests before it.
let forTemporalRestart: Promise<Stack>;
beforeAll(() => {
  forTemporalRestart = start();
  forTemporalRestart.catch(() => undefined); // its test reports it
});
afterAll(async () => {
  await Promise.allSettled([forTemporalRestart]);
  killStacks(stacks);
}, 240_000);

describe('npm start killed with SIGKILL', () => {
  let onKilledDir: Stack | undefined;

  it('takes its children with it, and the next start on the same DATA_DIR comes up', async () => {
    const first = await start();
    const { pid, apiPid, workerPid, interactiveWorkerPid, postgresPid, temporalPid } = first.state;
    const children = [apiPid!, workerPid!, interactiveWorkerPid!, postgresPid!, temporalPid!];
    expect(children.every(isAlive)).toBe(true);

    process.kill(pid, 'SIGKILL');
    await waitFor('every child of the killed supervisor to end', 10_000, async () =>
      [...children, ...processesUnder(first.dir)].every((p) => !isAlive(p)),
    );

    const second = await start({ DATA_DIR: first.dir });
    onKilledDir = second;
    expect(second.state.pid).not.toBe(pid);
    expect((await fetch(`${second.state.apiUrl}/healthz`)).status).toBe(200);
  }, 400_000);

  it('a second start on a DATA_DIR in use refuses, and leaves the running one its runtime.json', async () => {
    // The stack the test above started on the killed one's DATA_DIR, still running: one start fewer.
    const running = onKilledDir && isAlive(onKilledDir.state.pid) ? onKilledDir : await start();
    leftRunning = running;
    const before = fs.readFileSync(statePath(running.dir), 'utf8');

    const { child } = spawnStack({ DATA_DIR: running.dir });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    const log = fs.readFileSync(path.join(running.dir, 'stack.log'), 'utf8');
    expect(log).toContain(`Another npm start (pid ${running.state.pid}) is running on ${running.dir}`);
    expect(fs.readFileSync(statePath(running.dir), 'utf8')).toBe(before);
    expect((await fetch(`${running.state.apiUrl}/healthz`)).status).toBe(200);
  }, 400_000);
});

describe('a stop never waits', () => {
  it('SIGTERM to the supervisor ends the whole process tree within 10 s while a request is held open', async () => {
    const stack = leftRunning && isAlive(leftRunning.state.pid) ? leftRunning : await start();
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
    const stack = await forTemporalRestart;
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
