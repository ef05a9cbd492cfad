import fs from 'node:fs';
import path from 'node:path';
import { isAlive } from './child-process';

/** What a running `npm start` publishes in its data directory, so CLIs and tests find its parts. */
export interface RuntimeState {
  pid: number;
  apiUrl: string;
  /** Prometheus endpoints: the API's own, the worker's own, and the Temporal SDK's inside the worker. */
  apiMetricsUrl: string;
  workerAppMetricsUrl: string | null;
  workerSdkMetricsUrl: string | null;
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | null;
  apiPid: number | null;
  /** The bulk worker (WORKER_ROLE=bulk): the task queue's async batches, imports and deliveries. */
  workerPid: number | null;
  /** The interactive worker (WORKER_ROLE=interactive): the sync task queue's small batches; its own metrics, on fixed ports. */
  interactiveWorkerPid: number | null;
  interactiveWorkerAppMetricsUrl: string | null;
  interactiveWorkerSdkMetricsUrl: string | null;
  /** The embedded PostgreSQL's postmaster and the Temporal dev server (null when external); new after a restart. */
  postgresPid: number | null;
  temporalPid: number | null;
}

export const statePath = (dataDir: string): string => path.join(dataDir, 'runtime.json');

export function writeState(dataDir: string, state: RuntimeState): void {
  const file = statePath(dataDir);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(state, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

function readState(dataDir: string): RuntimeState | undefined {
  try {
    return JSON.parse(fs.readFileSync(statePath(dataDir), 'utf8')) as RuntimeState;
  } catch {
    return undefined;
  }
}

/** Another `npm start` runs on this data directory; the message says which and what to do. */
export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `Another npm start (pid ${pid}) is running on ${dataDir}: stop it first (kill ${pid}), or give this one its own DATA_DIR.`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** Whether `pid` is a supervisor (supervisor/start), not a process that got the pid of a dead one. */
function isSupervisor(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    return /supervisor[/\\]start\.[jt]s/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true; // no /proc: trust the pid
  }
}

/** Refuses a data directory another live supervisor has published itself in (its runtime.json stays). */
export function claimDataDir(dataDir: string): void {
  const state = readState(dataDir);
  if (state && state.pid !== process.pid && isSupervisor(state.pid)) throw new DataDirInUseError(dataDir, state.pid);
}

/** Removes runtime.json if this process wrote it: a start that gave up never deletes another's. */
export function releaseState(dataDir: string): void {
  if (readState(dataDir)?.pid === process.pid) fs.rmSync(statePath(dataDir), { force: true });
}

/** The state of a supervisor that is still alive, else undefined. */
export function readLiveState(dataDir: string): RuntimeState | undefined {
  const state = readState(dataDir);
  return state && isAlive(state.pid) ? state : undefined;
}
