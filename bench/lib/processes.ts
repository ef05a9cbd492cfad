import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { PROJECT_ROOT } from '../../platform/config';
import type { RuntimeState } from '../../supervisor/state';
import { typescriptCommand } from '../../test/helpers/stack';

/** Linux reports process times in clock ticks of 1/100 s (USER_HZ) on every architecture Node runs on. */
const TICK_MS = 10;

export type Role = 'api' | 'worker' | 'temporal' | 'postgres';

interface ProcStat {
  ppid: number;
  /** utime + stime: the process's own CPU. */
  own: number;
  /** cutime + cstime: the CPU of its children that ended and were waited for (PostgreSQL's backends). */
  reaped: number;
}

function readStats(): Map<number, ProcStat> {
  const stats = new Map<number, ProcStat>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let text: string;
    try {
      text = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // The command name is in parentheses and may hold spaces: the fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    stats.set(Number(entry), {
      ppid: Number(fields[1]),
      own: Number(fields[11]) + Number(fields[12]),
      reaped: Number(fields[13]) + Number(fields[14]),
    });
  }
  return stats;
}

/**
 * The processes a bench measures: each role's pids (their process trees count) and the Prometheus
 * endpoints of the API (its own), the worker (its own) and the Temporal SDK inside the worker. A role may
 * run as several processes (the production shape runs two APIs and two workers).
 */
export interface StackProcesses {
  pids: Record<Role, number[]>;
  metrics: { api: string[]; workerApp: string[]; workerSdk: string[] };
}

/**
 * What `npm start` runs (one process per role, its two workers together as the worker role), plus
 * BENCH_EXTRA_WORKERS's workers, whose metrics are not read.
 */
export function processesOf(state: RuntimeState, extraWorkers: number[] = []): StackProcesses {
  const pids = (...candidates: (number | null)[]) => candidates.filter((pid): pid is number => pid !== null);
  const urls = (...candidates: (string | null)[]) => candidates.filter((url): url is string => url !== null);
  return {
    pids: {
      api: pids(state.apiPid),
      worker: pids(state.workerPid, state.interactiveWorkerPid, ...extraWorkers),
      temporal: pids(state.temporalPid),
      postgres: pids(state.postgresPid),
    },
    metrics: {
      api: urls(state.apiMetricsUrl),
      workerApp: urls(state.workerAppMetricsUrl, state.interactiveWorkerAppMetricsUrl),
      workerSdk: urls(state.workerSdkMetricsUrl, state.interactiveWorkerSdkMetricsUrl),
    },
  };
}

/**
 * CPU milliseconds each part of the stack has used so far: the processes and all their descendants
 * (PostgreSQL forks a backend per connection), including descendants that ended.
 */
export function cpuMs(processes: StackProcesses): Record<Role, number> {
  const stats = readStats();
  const children = new Map<number, number[]>();
  for (const [pid, stat] of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  const tree = (root: number): number => {
    if (!stats.has(root)) return 0;
    let ticks = stats.get(root)!.reaped;
    const pending = [root];
    while (pending.length) {
      const pid = pending.pop()!;
      ticks += stats.get(pid)!.own;
      pending.push(...(children.get(pid) ?? []));
    }
    return ticks * TICK_MS;
  };
  const role = (name: Role) => processes.pids[name].reduce((sum, pid) => sum + tree(pid), 0);
  return { api: role('api'), worker: role('worker'), temporal: role('temporal'), postgres: role('postgres') };
}

/** What each part used between two readings with the same parts (of cpuMs, say). */
export function usedBetween<K extends string>(before: Record<K, number>, after: Record<K, number>): Record<K, number> {
  const used = {} as Record<K, number>;
  for (const part of Object.keys(after) as K[]) used[part] = after[part] - before[part];
  return used;
}

/** Every part's milliseconds together. */
export const totalMs = (parts: Readonly<Record<string, number>>): number =>
  Object.values(parts).reduce((sum, ms) => sum + ms, 0);

/** A Prometheus text exposition as `name{labels}` → value (histogram buckets included, comments not). */
export async function scrape(url: string | null): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  if (!url) return values;
  const text = await (await fetch(url)).text();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return values;
}

/** The sum of several processes' expositions: one role's counters across its processes. */
export async function scrapeAll(urls: readonly string[]): Promise<Map<string, number>> {
  const sum = new Map<string, number>();
  for (const values of await Promise.all(urls.map(scrape)))
    for (const [series, value] of values) sum.set(series, (sum.get(series) ?? 0) + value);
  return sum;
}

/** What grew between two scrapes, for the series whose name starts with `prefix`, keyed by one label's value. */
export function grown(
  before: Map<string, number>,
  after: Map<string, number>,
  prefix: string,
  label: string,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [series, value] of after) {
    if (!series.startsWith(`${prefix}{`)) continue;
    const delta = value - (before.get(series) ?? 0);
    if (!delta) continue;
    const key = new RegExp(`${label}="([^"]*)"`).exec(series)?.[1] ?? '';
    out[key] = (out[key] ?? 0) + delta;
  }
  return out;
}

/**
 * Another worker role (`npm run worker`) against the stack's PostgreSQL and Temporal, on the same task
 * queue: what one more worker adds. Resolves once it polls.
 */
export function startExtraWorker(state: RuntimeState): Promise<ChildProcess> {
  const child = spawn(...typescriptCommand('worker/main.ts'), {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: state.databaseUrl,
      TEMPORAL_ADDRESS: state.temporalAddress,
      WORKER_METRICS_PORT: '0',
      WORKER_APP_METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the extra worker exited with code ${code}`)));
    child.on('message', (message: { type?: string }) => {
      if (message.type === 'ready') resolve(child);
    });
  });
}

/**
 * Another API role (`npm run api`) against the stack's PostgreSQL and Temporal, with its own settings
 * (`env`, e.g. PIPELINE_LOCAL_MAX_EVENTS): how a setting read where the batch's input is built changes
 * the pipeline, side by side with the stack's own API in one run. Resolves once it listens.
 */
export function startExtraApi(
  state: Pick<RuntimeState, 'databaseUrl' | 'temporalAddress'>,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(...typescriptCommand('api/main.ts'), {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: state.databaseUrl,
      TEMPORAL_ADDRESS: state.temporalAddress,
      PORT: '0',
      LOG_LEVEL: 'warn',
      // A bench sends far more than a key's default rate, as test/helpers/stack.ts's stacks allow.
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      FAILED_KEYS_PER_MINUTE: '100000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the extra API exited with code ${code}`)));
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message.type === 'ready') resolve({ child, url: `http://127.0.0.1:${message.port}` });
    });
  });
}
