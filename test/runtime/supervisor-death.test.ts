import fs from 'node:fs';
import path from 'node:path';
import { isAlive } from '../../supervisor/child-process';
import { waitFor } from '../../platform/net';
import { statePath } from '../../supervisor/state';
import { killStacks, processesUnder, spawnStack, startStack, type Stack } from '../helpers/stack';

describe('npm start killed with SIGKILL', () => {
  const stacks: Stack[] = [];
  afterAll(() => killStacks(stacks), 60_000);

  it('takes its children with it, and the next start on the same DATA_DIR comes up', async () => {
    const first = await startStack();
    stacks.push(first);
    const { pid, apiPid, workerPid, interactiveWorkerPid, postgresPid, temporalPid } = first.state;
    const children = [apiPid!, workerPid!, interactiveWorkerPid!, postgresPid!, temporalPid!];
    expect(children.every(isAlive)).toBe(true);

    process.kill(pid, 'SIGKILL');
    await waitFor('every child of the killed supervisor to end', 10_000, async () =>
      [...children, ...processesUnder(first.dir)].every((p) => !isAlive(p)),
    );

    const second = await startStack({ DATA_DIR: first.dir });
    stacks.push(second);
    expect(second.state.pid).not.toBe(pid);
    expect((await fetch(`${second.state.apiUrl}/healthz`)).status).toBe(200);
  }, 400_000);

  it('a second start on a DATA_DIR in use refuses, and leaves the running one its runtime.json', async () => {
    // The stack the test above started on the killed one's DATA_DIR, still running: one start fewer.
    const last = stacks.at(-1);
    const running = last && isAlive(last.state.pid) ? last : await startStack();
    if (running !== last) stacks.push(running);
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
