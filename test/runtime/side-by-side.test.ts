import fs from 'node:fs';
import net from 'node:net';
import { isAlive } from '../../supervisor/child-process';
import { readLiveState, type RuntimeState } from '../../supervisor/state';
import { waitFor } from '../../platform/net';
import { spawnStack, startStack, type Stack } from '../helpers/stack';

/** The ports `npm start` picks by itself: unset, as on a user's machine. */
const DEFAULT_PORTS: NodeJS.ProcessEnv = {
  TEMPORAL_PORT: undefined,
  TEMPORAL_UI_PORT: undefined,
  WORKER_METRICS_PORT: undefined,
  WORKER_APP_METRICS_PORT: undefined,
  INTERACTIVE_WORKER_METRICS_PORT: undefined,
  INTERACTIVE_WORKER_APP_METRICS_PORT: undefined,
};

const uiAndMetricsUrls = (state: RuntimeState) => [
  state.temporalUiUrl,
  state.workerSdkMetricsUrl,
  state.workerAppMetricsUrl,
  state.interactiveWorkerSdkMetricsUrl,
  state.interactiveWorkerAppMetricsUrl,
];

const portOf = (url: string | null): number => Number(new URL(url!.includes('://') ? url! : `tcp://${url}`).port);

async function ready(stack: Stack): Promise<void> {
  await waitFor(
    `${stack.state.apiUrl}/readyz`,
    90_000,
    async () => (await fetch(`${stack.state.apiUrl}/readyz`).catch(() => undefined))?.status === 200,
  );
}

describe('two npm starts on one machine', () => {
  const stacks: Stack[] = [];
  afterAll(async () => {
    await Promise.all(stacks.map((stack) => stack.stop()));
    for (const stack of stacks)
      if (!process.env.KEEP_TEST_STACK) fs.rmSync(stack.dir, { recursive: true, force: true });
  }, 60_000);

  it('run side by side with their own DATA_DIR and PORT, every other port left to its default', async () => {
    stacks.push(await startStack(DEFAULT_PORTS));
    stacks.push(await startStack(DEFAULT_PORTS));
    const [first, second] = stacks;
    await Promise.all([ready(first), ready(second)]);

    const ports = (stack: Stack) => [
      portOf(stack.state.temporalAddress),
      portOf(stack.state.temporalUiUrl),
      portOf(stack.state.workerSdkMetricsUrl),
      portOf(stack.state.workerAppMetricsUrl),
      portOf(stack.state.interactiveWorkerSdkMetricsUrl),
      portOf(stack.state.interactiveWorkerAppMetricsUrl),
    ];
    const all = [...ports(first), ...ports(second)];
    expect(new Set(all).size).toBe(all.length);
    for (const stack of stacks) {
      for (const url of uiAndMetricsUrls(stack.state)) expect((await fetch(url!)).status).toBe(200);
      // Still the same processes: nothing was restarted over and over against the other's ports.
      for (const pid of [stack.state.temporalPid, stack.state.workerPid, stack.state.apiPid])
        expect(isAlive(pid!)).toBe(true);
    }
  }, 400_000);

  it('restarted workers keep their metrics ports, also free ones they bound themselves', async () => {
    // The second: the defaults were the first's, so each of its workers bound a free port and reported it.
    const [, stack] = stacks;
    const before = readLiveState(stack.dir)!;
    process.kill(before.workerPid!, 'SIGKILL');
    process.kill(before.interactiveWorkerPid!, 'SIGKILL');
    await waitFor('new workers', 60_000, async () => {
      const now = readLiveState(stack.dir);
      return Boolean(
        now?.workerPid &&
        now.workerPid !== before.workerPid &&
        now.interactiveWorkerPid &&
        now.interactiveWorkerPid !== before.interactiveWorkerPid,
      );
    });
    const after = readLiveState(stack.dir)!;
    expect(uiAndMetricsUrls(after)).toEqual(uiAndMetricsUrls(before));
    await waitFor('its metrics answering again', 60_000, async () =>
      (
        await Promise.all(
          uiAndMetricsUrls(after).map((url) =>
            fetch(url!).then(
              (r) => r.status === 200,
              () => false,
            ),
          ),
        )
      ).every(Boolean),
    );
  }, 120_000);

  it('a port set explicitly and taken stops the start at once, naming the variable and the process that holds it', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const { dir, child } = spawnStack({ TEMPORAL_PORT: String(port) });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      const log = fs.readFileSync(`${dir}/stack.log`, 'utf8');
      const started = fs.existsSync(`${dir}/pg`);
      fs.rmSync(dir, { recursive: true, force: true });
      expect(code).toBe(1);
      expect(log).toContain(`TEMPORAL_PORT=${port}: port ${port} is already in use by pid ${process.pid} (`);
      expect(log).not.toContain('restarting');
      expect(started).toBe(false);
    } finally {
      holder.close();
    }
  }, 60_000);
});
