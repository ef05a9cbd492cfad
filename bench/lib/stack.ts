/**
 * What a benchmark runs against: a stack of its own (`npm start`'s supervisor on free ports, as the tests
 * start it), or, with BENCH_STACK naming a file, a stack someone else runs and describes there
 * (`npm run bench:production` writes one for the production shape: two APIs, two workers, the Temporal
 * server on PostgreSQL). The bench never stops an attached stack.
 */
import fs from 'node:fs';
import type { RuntimeState } from '../../supervisor/state';
import { startStack, type Stack } from '../../test/helpers/stack';
import { processesOf, type StackProcesses } from './processes';

/** The file BENCH_STACK names. */
export interface AttachedStackFile extends StackProcesses {
  /** What runs, for the report (e.g. "temporal-server 1.32.2 on PostgreSQL, 2 APIs, 2 workers"). */
  label: string;
  /** Every API's base URL: the bench's clients take them in turn, as a load balancer in front would. */
  apiUrls: string[];
  databaseUrl: string;
  temporalAddress: string;
}

export interface BenchStack {
  label: string;
  /** For what takes `npm start`'s state (its first API, its first worker's endpoints). */
  state: RuntimeState;
  apiUrls: string[];
  /** The processes to measure, BENCH_EXTRA_WORKERS's `extraWorkers` among them. */
  processes(extraWorkers?: number[]): StackProcesses;
  stop(): Promise<void>;
}

/**
 * A stack of the bench's own, as `npm start` runs it: its PostgreSQL durable (fsync on), as users run it,
 * unless EMBEDDED_PG_DURABLE=false asks for the tests' fast mode.
 */
export async function startBenchStack(extraEnv: NodeJS.ProcessEnv = {}): Promise<Stack & { durable: boolean }> {
  const durable = process.env.EMBEDDED_PG_DURABLE !== 'false';
  const stack = await startStack({ LOG_LEVEL: 'warn', EMBEDDED_PG_DURABLE: String(durable), ...extraEnv });
  return { ...stack, durable };
}

export async function benchStack(): Promise<BenchStack> {
  const file = process.env.BENCH_STACK;
  if (file) return attach(JSON.parse(fs.readFileSync(file, 'utf8')) as AttachedStackFile);
  // pg_stat_statements, for PostgreSQL's planning and execution time per batch (bench/lib/pipeline.ts).
  const stack = await startBenchStack({ EMBEDDED_PG_STATEMENT_STATS: 'true' });
  const durable = stack.durable;
  return {
    label: `npm start: Temporal dev server (SQLite), 1 API, 1 worker, PostgreSQL ${durable ? 'durable' : 'without fsync'}`,
    state: stack.state,
    apiUrls: [stack.state.apiUrl],
    processes: (extraWorkers = []) => processesOf(stack.state, extraWorkers),
    stop: async () => {
      await stack.stop();
      if (!process.env.KEEP_BENCH_STACK) fs.rmSync(stack.dir, { recursive: true, force: true });
    },
  };
}

function attach(described: AttachedStackFile): BenchStack {
  const first = <T>(values: T[]): T | null => values[0] ?? null;
  const state: RuntimeState = {
    pid: process.pid,
    apiUrl: described.apiUrls[0],
    apiMetricsUrl: described.metrics.api[0],
    workerAppMetricsUrl: first(described.metrics.workerApp),
    workerSdkMetricsUrl: first(described.metrics.workerSdk),
    databaseUrl: described.databaseUrl,
    temporalAddress: described.temporalAddress,
    temporalUiUrl: null,
    apiPid: first(described.pids.api),
    workerPid: first(described.pids.worker),
    interactiveWorkerPid: null,
    interactiveWorkerAppMetricsUrl: null,
    interactiveWorkerSdkMetricsUrl: null,
    postgresPid: first(described.pids.postgres),
    temporalPid: first(described.pids.temporal),
  };
  return {
    label: described.label,
    state,
    apiUrls: described.apiUrls,
    processes: (extraWorkers = []) => ({
      pids: { ...described.pids, worker: [...described.pids.worker, ...extraWorkers] },
      metrics: described.metrics,
    }),
    stop: async () => undefined,
  };
}
