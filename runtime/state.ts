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
  workerPid: number | null;
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

/** The state of a supervisor that is still alive, else undefined. */
export function readLiveState(dataDir: string): RuntimeState | undefined {
  let state: RuntimeState;
  try {
    state = JSON.parse(fs.readFileSync(statePath(dataDir), 'utf8')) as RuntimeState;
  } catch {
    return undefined;
  }
  return isAlive(state.pid) ? state : undefined;
}
