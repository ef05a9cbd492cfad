import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../platform/config';
import { waitFor } from '../../platform/net';
import { isAlive } from '../../supervisor/child-process';
import { readLiveState, type RuntimeState } from '../../supervisor/state';

/**
 * What the package's scripts run for a TypeScript entry (e.g. 'api/main.ts'): node with tsx's loader, one
 * process. The tsx command runs node as its child and answers a signal that child has not acknowledged
 * within 30 ms with SIGKILL: on a busy machine a SIGTERM became a kill.
 */
export function typescriptCommand(entry: string): [command: string, args: string[]] {
  return [
    process.execPath,
    [
      ...(process.env.PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROF_DIR}`] : []),
      '--import',
      'tsx',
      path.join(PROJECT_ROOT, entry),
    ],
  ];
}

export interface Stack {
  dir: string;
  process: ChildProcess;
  state: RuntimeState;
  stop(): Promise<void>;
}

/** A word the shell takes as it is. */
const shellWord = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Spawns `npm start`'s supervisor (supervisor/start.ts) on free ports, with a throw-away data directory (or
 * extraEnv.DATA_DIR), its output in dir/stack.log, without waiting for it. A variable given as undefined
 * in extraEnv is unset (a port left to its default). `terminal` runs it on a pseudo-terminal (util-linux
 * `script`), as a person at a terminal runs it; the child is then `script`, not the supervisor.
 */
export function spawnStack(
  extraEnv: NodeJS.ProcessEnv = {},
  { terminal = false }: { terminal?: boolean } = {},
): { dir: string; child: ChildProcess } {
  const dir = extraEnv.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'traceability-test-'));
  fs.mkdirSync(dir, { recursive: true });
  if (!extraEnv.DATA_DIR) fs.chmodSync(dir, 0o755); // so the postgres user reaches dir/pg itself
  const log = fs.openSync(path.join(dir, 'stack.log'), 'a');
  const env: NodeJS.ProcessEnv = {
    // Fair use out of the way of tests and benchmarks, which send far more than a key's default rate
    // (the limits' own tests set lower ones per account or per process).
    RATE_LIMIT_PER_SECOND: '100000',
    RATE_LIMIT_BURST: '100000',
    FAILED_KEYS_PER_MINUTE: '100000',
    ...process.env,
    DATA_DIR: dir,
    PORT: '0',
    TEMPORAL_PORT: '0',
    TEMPORAL_UI_PORT: '0',
    WORKER_METRICS_PORT: '0',
    WORKER_APP_METRICS_PORT: '0',
    INTERACTIVE_WORKER_METRICS_PORT: '0',
    INTERACTIVE_WORKER_APP_METRICS_PORT: '0',
    EMBEDDED_PG_DURABLE: 'false',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'info', // test/api/pipeline-log.test.ts reads the pipeline's info lines
    LOG_FORMAT: 'json',
    // Webhook and subscription tests deliver to a receiver on loopback, and watch retries run out in seconds.
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_RETRY_SECONDS: '20',
    // Query sockets whose client went silent are cut within seconds (test/api/epcis-query-sockets.test.ts).
    QUERY_SOCKET_PING_SECONDS: '1',
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const [command, args] = typescriptCommand('supervisor/start.ts');
  const child = terminal
    ? spawn('script', ['--quiet', '--return', '--command', [command, ...args].map(shellWord).join(' '), '/dev/null'], {
        cwd: PROJECT_ROOT,
        env,
        stdio: ['ignore', log, log],
      })
    : spawn(command, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', log, log] });
  return { dir, child };
}

/**
 * Starts the whole service the way `npm start` does: PostgreSQL, the Temporal dev server, the worker and
 * the API as real processes (see spawnStack), once runtime.json says it is up.
 */
export async function startStack(
  extraEnv: NodeJS.ProcessEnv = {},
  options: { terminal?: boolean } = {},
): Promise<Stack> {
  const { dir, child } = spawnStack(extraEnv, options);
  const tail = () => fs.readFileSync(path.join(dir, 'stack.log'), 'utf8').slice(-3000);
  let state: RuntimeState | undefined;
  try {
    await waitFor('the service stack to start', 180_000, async () => {
      if (child.exitCode !== null) throw new Error(`the stack exited with code ${child.exitCode}:\n${tail()}`);
      state = readLiveState(dir);
      return state !== undefined;
    });
  } catch (error) {
    child.kill('SIGTERM'); // never leave a half-started stack behind
    throw error;
  }
  return {
    dir,
    process: child,
    state: state!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Processes whose command line names `dir`: PostgreSQL (-D dir/pg) and Temporal (dir/temporal.db), zombies included. */
export function processesUnder(dir: string): number[] {
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
    .map(Number);
}

/**
 * An afterAll for tests that kill or stop stacks themselves: SIGKILLs whatever of each stack is still
 * alive (supervisor, API, workers and every server under its data dir) and removes each data dir once
 * (two stacks may share one), unless KEEP_TEST_STACK is set.
 */
export function killStacks(stacks: Stack[]): void {
  for (const stack of stacks) {
    const { pid, apiPid, workerPid, interactiveWorkerPid } = stack.state;
    for (const p of [pid, apiPid, workerPid, interactiveWorkerPid, ...processesUnder(stack.dir)])
      if (p && isAlive(p)) process.kill(p, 'SIGKILL');
  }
  for (const dir of new Set(stacks.map((stack) => stack.dir)))
    if (!process.env.KEEP_TEST_STACK) fs.rmSync(dir, { recursive: true, force: true });
}
