/**
 * `npm run bench:production`: docker-compose.yml's production shape without Docker, measured. It builds
 * the Temporal server docker-compose.yml names (from source, with Go), starts a durable PostgreSQL of its
 * own, runs the compose file's own set-up scripts against it (Temporal's databases and schema; the
 * namespace and search attributes), starts the server on PostgreSQL with the compose file's environment
 * and dynamic config, then `npm run api` and `npm run worker` processes, and runs `npm run bench:events`
 * against them. Everything it started stops when it ends (Ctrl-C included).
 *
 *   npm run bench:production              one JSON report: each run of BENCH_PRODUCTION_RUNS in order
 *   npm run bench:production -- --serve   start 2 APIs and 2 workers (interactive and bulk), print where they are, run until Ctrl-C
 *
 *   BENCH_PRODUCTION_RUNS  comma-separated; `AxW` is bench:events against A APIs and W workers on the
 *                          production server, `dev` against `npm start`'s dev server (SQLite) with a
 *                          durable PostgreSQL, run after the production stack has stopped (default
 *                          "1x1,1x2,2x2,1x1,dev": 1x2 is what a second worker adds, 2x2 a second API
 *                          too, and 1x1 again tells their share from a warmer server's and a fuller database's)
 *   GOTOOLCHAIN            the Go toolchain that builds the server (default GO_TOOLCHAIN below)
 *   BENCH_EVENTS, BENCH_CLIENTS, BENCH_SINGLE...  passed on to bench:events
 *
 * Its files are in .data/production (PostgreSQL's cluster, each process's log, stack.json: what
 * bench:events attaches to), emptied at each start; the server's binaries in .tools/temporal-server/<version>.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import pino from 'pino';
import { exitOf, hasExited, spawnBound, stopChild } from '../../supervisor/child-process';
import { PROJECT_ROOT, type WorkerRole } from '../../platform/config';
import { waitFor } from '../../platform/net';
import { isPortFree } from '../../platform/ports';
import { startEmbeddedPostgres } from '../../supervisor/postgres';
import { ensureTemporalCli } from '../../supervisor/temporal-cli';
import type { AttachedStackFile } from '../lib/stack';
import { round } from '../lib/report';
import { typescriptCommand } from '../../test/helpers/stack';
import { IMAGE_SCHEMA_DIR, readProductionShape, serverBinDir, serverPackages } from './shape';

/** The toolchain the measured binaries were built with (the server's go.mod asks for a newer Go than many machines have). */
export const GO_TOOLCHAIN = 'go1.27.3';

const DATA_DIR = path.join(PROJECT_ROOT, '.data', 'production');
// On stderr: stdout carries the report alone.
const logger = pino(
  { name: 'production', level: process.env.LOG_LEVEL || 'info' },
  process.stderr.isTTY
    ? pino.transport({ target: 'pino-pretty', options: { destination: 2, colorize: true, ignore: 'pid,hostname' } })
    : pino.destination(2),
);

/** Thrown for a setup the script cannot fix: printed as one line, without a stack trace. */
class SetupError extends Error {}

interface ServerBinaries {
  server: string;
  sqlTool: string;
  /** The module's schema/ folder, copied next to the binaries: what the admin-tools image has in IMAGE_SCHEMA_DIR. */
  schemaDir: string;
}

/** The server and temporal-sql-tool at `version`, built with `go install` unless they are there already. */
async function serverBinaries(version: string): Promise<ServerBinaries> {
  const dir = serverBinDir(version);
  const [server, sqlTool] = serverPackages(version).map((p) => path.join(dir, p.binary));
  const schemaDir = path.join(dir, 'schema');
  if ([server, sqlTool, schemaDir].every((file) => fs.existsSync(file))) return { server, sqlTool, schemaDir };

  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.error) {
    throw new SetupError(
      `Go is not installed (\`go\` is not on PATH): bench:production builds the Temporal server ${version} from source. Install Go from https://go.dev/dl/ and run it again.`,
    );
  }
  const env = {
    ...process.env,
    GOTOOLCHAIN: process.env.GOTOOLCHAIN || GO_TOOLCHAIN,
    GOBIN: path.join(dir, 'build'),
    CGO_ENABLED: '0',
  };
  fs.mkdirSync(env.GOBIN, { recursive: true });
  logger.info(
    { version, toolchain: env.GOTOOLCHAIN, dir },
    'building the Temporal server and temporal-sql-tool (several minutes the first time)',
  );
  const build = spawn('go', ['install', ...serverPackages(version).map((p) => p.pkg)], { env, stdio: 'inherit' });
  await exitOf(build);
  if (build.exitCode !== 0)
    throw new SetupError(
      `go install of the Temporal server ${version} failed (exit code ${build.exitCode}); its output is above.`,
    );
  for (const p of serverPackages(version)) fs.renameSync(path.join(env.GOBIN, p.built), path.join(dir, p.binary));
  fs.rmSync(env.GOBIN, { recursive: true, force: true });

  const modCache = spawnSync('go', ['env', 'GOMODCACHE'], { env, encoding: 'utf8' }).stdout.trim();
  fs.cpSync(path.join(modCache, `go.temporal.io/server@v${version}`, 'schema'), schemaDir, { recursive: true });
  return { server, sqlTool, schemaDir };
}

/**
 * A free loopback port below 32768: the server keeps its services' ports in a smallint column of its
 * cluster_membership table (and refuses to start on the ephemeral ports the system hands out above that).
 */
async function freeLowPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!taken.has(port) && (await isPortFree(port))) {
      taken.add(port);
      return port;
    }
  }
}

/** Runs a compose service's shell script here; its output goes to `log`. */
async function runScript(what: string, script: string, env: NodeJS.ProcessEnv, log: string): Promise<void> {
  const out = fs.openSync(log, 'a');
  const child = spawn('/bin/sh', ['-c', script], { env, stdio: ['ignore', out, out] });
  await exitOf(child);
  fs.closeSync(out);
  if (child.exitCode !== 0)
    throw new SetupError(
      `${what} failed (exit code ${child.exitCode}): ${fs.readFileSync(log, 'utf8').trim().split('\n').slice(-5).join(' | ')}`,
    );
}

/** Everything started, stopped in reverse order at the end. */
const stops: (() => Promise<unknown>)[] = [];
async function stopAll(): Promise<void> {
  while (stops.length)
    await stops.pop()!().catch((error: unknown) => logger.warn({ err: error }, 'stopping a process failed'));
}

interface RoleProcess {
  child: ChildProcess;
  /** A worker's WORKER_ROLE. */
  workerRole?: WorkerRole;
  apiUrl?: string;
  metrics: string[];
  stop(): Promise<unknown>;
}

/** One `npm run api` or `npm run worker`, resolved once it says it is ready. */
function startRole(
  role: 'api' | 'worker',
  index: number,
  env: NodeJS.ProcessEnv,
  workerRole?: WorkerRole,
): Promise<RoleProcess> {
  const out = fs.openSync(path.join(DATA_DIR, `${role}-${index}.log`), 'a');
  const child = spawnBound(
    ...typescriptCommand(`${role}/main.ts`),
    {
      cwd: PROJECT_ROOT,
      env: workerRole ? { ...env, WORKER_ROLE: workerRole } : env,
      stdio: ['ignore', out, out, 'ipc'],
    },
    'SIGTERM',
  );
  fs.closeSync(out);
  const stop = () => stopChild(child, 'SIGTERM', 8000);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      reject(
        new SetupError(`${role} ${index} exited with code ${code}: see ${path.join(DATA_DIR, `${role}-${index}.log`)}`),
      ),
    );
    child.on(
      'message',
      (message: { type?: string; port?: number; appMetricsPort?: number; sdkMetricsPort?: number }) => {
        if (message.type !== 'ready') return;
        child.removeAllListeners('exit');
        if (role === 'api')
          resolve({
            child,
            apiUrl: `http://127.0.0.1:${message.port}`,
            metrics: [`http://127.0.0.1:${message.port}/metrics`],
            stop,
          });
        else
          resolve({
            child,
            workerRole,
            metrics: [
              `http://127.0.0.1:${message.appMetricsPort}/metrics`,
              `http://127.0.0.1:${message.sdkMetricsPort}/metrics`,
            ],
            stop,
          });
      },
    );
  });
}

interface ProductionStack {
  label: string;
  databaseUrl: string;
  temporalAddress: string;
  postgresPid: number;
  temporalPid: number;
  apis: RoleProcess[];
  workers: RoleProcess[];
  roleEnv: NodeJS.ProcessEnv;
}

async function startProductionStack(): Promise<ProductionStack> {
  const shape = readProductionShape();
  const bins = await serverBinaries(shape.serverVersion);
  const cli = await ensureTemporalCli(process.env.TEMPORAL_CLI_PATH || undefined, logger);
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(DATA_DIR, { recursive: true });
  fs.chmodSync(DATA_DIR, 0o755); // the postgres user reaches its cluster in DATA_DIR/pg

  // fsync on: the production shape measures what users run.
  const pg = await startEmbeddedPostgres({ dataDir: path.join(DATA_DIR, 'pg'), logger, durable: true });
  stops.push(() => pg.stop());
  const pathWith = (dir: string) => [dir, process.env.PATH ?? ''].join(path.delimiter);

  // temporal-schema's script, with our PostgreSQL and the schema files the server module ships.
  await runScript(
    'temporal-schema (Temporal databases and schema)',
    shape.schemaScript.replaceAll(IMAGE_SCHEMA_DIR, bins.schemaDir),
    {
      ...process.env,
      ...shape.schemaEnvironment,
      SQL_HOST: '127.0.0.1',
      SQL_PORT: String(pg.port),
      SQL_USER: 'postgres',
      SQL_PASSWORD: '',
      PATH: pathWith(path.dirname(bins.sqlTool)),
    },
    path.join(DATA_DIR, 'temporal-schema.log'),
  );

  // The compose file's environment for the server's config template, with our PostgreSQL and free loopback ports.
  const ports = [
    'FRONTEND_GRPC_PORT',
    'FRONTEND_HTTP_PORT',
    'FRONTEND_MEMBERSHIP_PORT',
    'HISTORY_GRPC_PORT',
    'HISTORY_MEMBERSHIP_PORT',
    'MATCHING_GRPC_PORT',
    'MATCHING_MEMBERSHIP_PORT',
    'WORKER_GRPC_PORT',
    'WORKER_MEMBERSHIP_PORT',
  ];
  const serverEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...shape.serverEnvironment,
    POSTGRES_SEEDS: '127.0.0.1',
    DB_PORT: String(pg.port),
    POSTGRES_USER: 'postgres',
    POSTGRES_PWD: '',
    BIND_ON_IP: '127.0.0.1',
    DYNAMIC_CONFIG_FILE_PATH: shape.dynamicConfigFile,
    LOG_LEVEL: 'warn',
  };
  const taken = new Set<number>();
  for (const name of ports) serverEnv[name] = String(await freeLowPort(taken));
  const address = `127.0.0.1:${serverEnv.FRONTEND_GRPC_PORT}`;
  const serverLog = path.join(DATA_DIR, 'temporal-server.log');
  const out = fs.openSync(serverLog, 'a');
  const server = spawnBound(
    bins.server,
    ['start'],
    { cwd: DATA_DIR, env: serverEnv, stdio: ['ignore', out, out] },
    'SIGTERM',
  );
  fs.closeSync(out);
  stops.push(() => stopChild(server, 'SIGTERM', 10_000));
  await waitFor(`the Temporal server on ${address}`, 120_000, async () => {
    if (hasExited(server))
      throw new SetupError(`the Temporal server exited (code ${server.exitCode}): see ${serverLog}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return true;
      } finally {
        await connection.close();
      }
    } catch {
      return false;
    }
  });

  // temporal-setup's script: the namespace and the search attributes, as the compose file creates them.
  await runScript(
    'temporal-setup (namespace and search attributes)',
    shape.setupScript,
    { ...process.env, TEMPORAL_ADDRESS: address, PATH: pathWith(path.dirname(cli)) },
    path.join(DATA_DIR, 'temporal-setup.log'),
  );

  const roleEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: pg.url,
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: 'default',
    PORT: '0',
    WORKER_METRICS_PORT: '0',
    WORKER_APP_METRICS_PORT: '0',
    LOG_LEVEL: process.env.ROLE_LOG_LEVEL || 'warn',
  };
  delete roleEnv.BENCH_STACK;
  return {
    label: `temporal-server ${shape.serverVersion} on PostgreSQL (durable), eager activities (${path.relative(PROJECT_ROOT, shape.dynamicConfigFile)})`,
    databaseUrl: pg.url,
    temporalAddress: address,
    postgresPid: pg.process.pid!,
    temporalPid: server.pid!,
    apis: [],
    workers: [],
    roleEnv,
  };
}

/**
 * What `workers` worker processes poll: one alone polls both task queues (`all`, as a lone `npm run
 * worker`); two or more split as `npm start` and docker-compose.yml do, one `interactive` and the rest `bulk`.
 */
const workerRoles = (workers: number): WorkerRole[] =>
  workers === 1 ? ['all'] : ['interactive', ...Array<WorkerRole>(workers - 1).fill('bulk')];

/** Starts or stops `api` and `worker` processes until `apis` and `workers` run, the workers in their roles. */
async function scale(stack: ProductionStack, apis: number, workers: number): Promise<void> {
  const roles = workerRoles(workers);
  while (stack.workers.length > 0 && stack.workers.some((worker, i) => worker.workerRole !== roles[i]))
    await stack.workers.pop()!.stop();
  while (stack.workers.length < workers)
    await startInto(stack.workers, 'worker', stack.roleEnv, roles[stack.workers.length]);
  while (stack.apis.length > apis) await stack.apis.pop()!.stop();
  while (stack.apis.length < apis) await startInto(stack.apis, 'api', stack.roleEnv);
}

async function startInto(
  list: RoleProcess[],
  role: 'api' | 'worker',
  env: NodeJS.ProcessEnv,
  workerRole?: WorkerRole,
): Promise<void> {
  const started = await startRole(role, list.length + 1, env, workerRole);
  list.push(started);
  stops.push(() => started.stop());
}

function describe(stack: ProductionStack): AttachedStackFile {
  return {
    label: `${stack.label}, ${stack.apis.length} API${stack.apis.length > 1 ? 's' : ''}, ${stack.workers.length} worker${stack.workers.length > 1 ? 's' : ''} (${stack.workers.map((w) => w.workerRole).join(', ')})`,
    apiUrls: stack.apis.map((api) => api.apiUrl!),
    databaseUrl: stack.databaseUrl,
    temporalAddress: stack.temporalAddress,
    pids: {
      api: stack.apis.map((a) => a.child.pid!),
      worker: stack.workers.map((w) => w.child.pid!),
      temporal: [stack.temporalPid],
      postgres: [stack.postgresPid],
    },
    metrics: {
      api: stack.apis.flatMap((a) => a.metrics),
      workerApp: stack.workers.map((w) => w.metrics[0]),
      workerSdk: stack.workers.map((w) => w.metrics[1]),
    },
  };
}

/** `npm run bench:events`, attached to `stackFile` when given; its JSON report. */
async function benchEvents(env: NodeJS.ProcessEnv): Promise<object> {
  const child = spawn(...typescriptCommand('bench/events.ts'), {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  stops.push(() => stopChild(child, 'SIGTERM', 10_000));
  await exitOf(child);
  stops.pop();
  if (child.exitCode !== 0) throw new Error(`bench:events failed (exit code ${child.exitCode})`);
  return JSON.parse(stdout) as object;
}

const load = () => os.loadavg().map((value) => round(value, 2));

async function measure(): Promise<object> {
  const runs = (process.env.BENCH_PRODUCTION_RUNS || '1x1,1x2,2x2,1x1,dev').split(',').map((run) => run.trim());
  for (const run of runs)
    if (run !== 'dev' && !/^[1-9]\d*x[1-9]\d*$/.test(run))
      throw new SetupError(`BENCH_PRODUCTION_RUNS: "${run}" is neither AxW (APIs x workers) nor dev`);
  const reports: object[] = [];
  let stack: ProductionStack | undefined;
  const stackFile = path.join(DATA_DIR, 'stack.json');
  for (const run of runs) {
    const loadBefore = load();
    if (run === 'dev') {
      // The production stack stops first: it would take CPU from the dev server's run.
      await stopAll();
      stack = undefined;
      const env: NodeJS.ProcessEnv = { ...process.env, EMBEDDED_PG_DURABLE: 'true' };
      delete env.BENCH_STACK;
      reports.push({ run, loadBefore, ...(await benchEvents(env)), loadAfter: load() });
      continue;
    }
    stack ??= await startProductionStack();
    const [apis, workers] = run.split('x').map(Number);
    await scale(stack, apis, workers);
    fs.writeFileSync(stackFile, JSON.stringify(describe(stack), null, 2));
    logger.info({ run }, 'bench:events against the production shape');
    reports.push({
      run,
      loadBefore,
      ...(await benchEvents({ ...process.env, BENCH_STACK: stackFile })),
      loadAfter: load(),
    });
  }
  return { cpus: os.cpus().length, runs: reports };
}

async function serve(): Promise<void> {
  const stack = await startProductionStack();
  await scale(stack, 2, 2);
  const described = describe(stack);
  fs.writeFileSync(path.join(DATA_DIR, 'stack.json'), JSON.stringify(described, null, 2));
  logger.info(
    { apis: described.apiUrls, temporal: described.temporalAddress, database: described.databaseUrl, logs: DATA_DIR },
    `${described.label}: running until Ctrl-C`,
  );
  await new Promise(() => undefined);
}

async function main(): Promise<void> {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      void stopAll().then(() => process.exit(130));
    });
  }
  try {
    if (process.argv.includes('--serve')) await serve();
    else console.log(JSON.stringify(await measure(), null, 2));
  } finally {
    await stopAll();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof SetupError ? error.message : error);
    void stopAll().then(() => process.exit(1));
  },
);
