import fs from 'node:fs';
import path from 'node:path';
import { isAlive } from '../../supervisor/child-process';
import { waitFor } from '../../platform/net';
import { statePath } from '../../supervisor/state';
import { spawnStack, startStack, type Stack } from '../helpers/stack';

/** Processes whose command line names `dir`: PostgreSQL (-D dir/pg) and Temporal (dir/temporal.db). */
function processesUnder(dir: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir);
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter(isAlive);
}

describe('npm start killed with SIGKILL', () => {
  const stacks: Stack[] = [];
  afterAll(async () => {
    for (const stack of stacks) {
      const { pid, apiPid, workerPid } = stack.state;
      for (const p of [pid, apiPid, workerPid, ...processesUnder(stack.dir)]) if (p && isAlive(p)) process.kill(p, 'SIGKILL');
    }
    for (const dir of new Set(stacks.map((stack) => stack.dir))) if (!process.env.KEEP_TEST_STACK) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('takes its children with it, and the next start on the same DATA_DIR comes up', async () => {
    const first = await startStack();
    stacks.push(first);
    const { pid, apiPid, workerPid, postgresPid, temporalPid } = first.state;
    const children = [apiPid!, workerPid!, postgresPid!, temporalPid!];
    expect(children.every(isAlive)).toBe(true);

    process.kill(pid, 'SIGKILL');
    await waitFor('every child of the killed supervisor to end', 10_000, async () => [...children, ...processesUnder(first.dir)].every((p) => !isAlive(p)));

    const second = await startStack({ DATA_DIR: first.dir });
    stacks.push(second);
    expect(second.state.pid).not.toBe(pid);
    expect((await fetch(`${second.state.apiUrl}/healthz`)).status).toBe(200);
  }, 400_000);

  it('a second start on a DATA_DIR in use refuses, and leaves the running one its runtime.json', async () => {
    const running = await startStack();
    stacks.push(running);
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
