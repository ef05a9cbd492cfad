import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import proxyaddr from 'proxy-addr';
import { parseAllowedHosts } from '../domain/destinations';

/** The folder of package.json, whether this runs from the sources (tsx) or from dist/ (compiled). */
export const PROJECT_ROOT = ((): string => {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(__dirname, '..');
  }
})();
export const TASK_QUEUE = 'traceability';

/**
 * WORKER_ROLE: which task queues (domain/task-queues.ts) a worker process polls. `interactive` only the
 * sync task queue (small batches a caller waits on), `bulk` the task queue (async batches, imports, the
 * reconciler) and the deliveries', `all` all three. `npm start` and docker-compose.yml run one process of each of the first two,
 * so that the operating system can give small batches the CPU ahead of a neighbour's burst.
 */
export const WORKER_ROLES = ['all', 'interactive', 'bulk'] as const;
export type WorkerRole = (typeof WORKER_ROLES)[number];

/**
 * The bulk worker's niceness: the kernel gives a busy interactive worker (niceness 0) about nine times
 * the CPU of a busy bulk one, so a burst of async batches cannot take the cores small batches need,
 * and takes them all when nothing else runs.
 */
export const BULK_WORKER_NICENESS = 10;

/**
 * A worker's identity, as the Temporal UI lists a task queue's pollers: the SDK's own pid@host, and what
 * the process is (its WORKER_ROLE, or `api` for the API's own worker, which /readyz does not count).
 */
export const workerIdentity = (role: WorkerRole | 'api'): string => `${process.pid}@${os.hostname()} ${role}`;

/** Whether a worker identity is the API's own worker's (workerIdentity). */
export const isApiWorkerIdentity = (identity: string): boolean => identity.endsWith(' api');

/** The ports used when their variable is unset (`npm start` takes free ones instead when these are in use). */
export const DEFAULT_PORTS = {
  PORT: 8080,
  TEMPORAL_PORT: 7233,
  TEMPORAL_UI_PORT: 8233,
  WORKER_METRICS_PORT: 9464,
  WORKER_APP_METRICS_PORT: 9465,
  /** `npm start`'s interactive worker (WORKER_ROLE): the ports it is given as WORKER_METRICS_PORT and WORKER_APP_METRICS_PORT. */
  INTERACTIVE_WORKER_METRICS_PORT: 9466,
  INTERACTIVE_WORKER_APP_METRICS_PORT: 9467,
} as const;

/**
 * WEBHOOK_ALLOWED_HOSTS under `npm start` when unset: a development instance delivers to a receiver on
 * the same machine without configuration. `npm run api` and `npm run worker` (production) allow none.
 */
export const DEVELOPMENT_WEBHOOK_ALLOWED_HOSTS = ['localhost', '127.0.0.1', '::1'] as const;

/**
 * The largest batch whose steps run as local activities: as many events as a request, a capture or an
 * import chunk can hold, so by default every batch (test/runtime/config.test.ts keeps it so). Skipping
 * three activity round trips through Temporal saves about a fifth of a 500-event batch's CPU
 * (docs/benchmarks.md). A 500-event batch's steps take under half a second here; should they outlast
 * the workflow task's timeout, the SDK's core heartbeats the task (a few more history events), and a
 * worker that dies inside them is noticed at that timeout (10 s) rather than by missed heartbeats (5 s).
 */
export const DEFAULT_PIPELINE_LOCAL_MAX_EVENTS = 1000;

/** A few beats missed in a row: /readyz counts such a worker gone, and a worker whose own beats Temporal has
 * not had for this long starts again (worker/main.ts). */
export const heartbeatStaleSeconds = (config: Pick<Config, 'workerHeartbeatSeconds'>): number =>
  4 * config.workerHeartbeatSeconds;

/** The settings loadConfig reads from the environment (each one described there). */
export type Config = ReturnType<typeof loadConfig>;

/** A whole number from `value` (`fallback` when unset) within min-max; `what` names it in the error. */
function whole(name: string, value: string | undefined, fallback: number, what: string, min: number, max: number) {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max)
    throw new Error(`${name} must be ${what} (${min}-${max}), got "${value}"`);
  return parsed;
}

function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  throw new Error(`${name} must be true or false, got "${value}"`);
}

function workerRole(value: string | undefined): WorkerRole {
  if (value === undefined || value === '') return 'all';
  const role = WORKER_ROLES.find((known) => known === value.toLowerCase());
  if (!role) throw new Error(`WORKER_ROLE must be one of ${WORKER_ROLES.join(', ')}, got "${value}"`);
  return role;
}

const nonEmpty = (value: string | undefined): string | undefined => (value ? value : undefined);

function trustedProxies(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    proxyaddr.compile(entries);
  } catch (error) {
    throw new Error(
      `TRUSTED_PROXIES must be comma-separated IP addresses or CIDR ranges (or loopback, linklocal, uniquelocal): ${(error as Error).message}`,
    );
  }
  return entries;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const port = (name: keyof typeof DEFAULT_PORTS) =>
    whole(name, env[name], DEFAULT_PORTS[name], 'a port number', 0, 65535);
  const seconds = (name: string, fallback: number, max = 86_400) =>
    whole(name, env[name], fallback, 'a whole number of seconds', 1, max);
  const count = (name: string, fallback: number, min: number) =>
    whole(name, env[name], fallback, 'a whole number', min, 1_000_000);
  return {
    /** Port of the HTTP API; 0 picks a free one. */
    port: port('PORT'),
    /** The address the HTTP API listens on: every interface, unless `npm start` (a development instance) says loopback. */
    apiHost: env.API_HOST || '0.0.0.0',
    /** External PostgreSQL; when unset `npm start` runs an embedded server under `dataDir/pg`. */
    databaseUrl: nonEmpty(env.DATABASE_URL),
    /** External Temporal frontend; when unset `npm start` runs `temporal server start-dev`. */
    temporalAddress: nonEmpty(env.TEMPORAL_ADDRESS),
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    temporalCliPath: nonEmpty(env.TEMPORAL_CLI_PATH),
    temporalPort: port('TEMPORAL_PORT'),
    temporalUiPort: port('TEMPORAL_UI_PORT'),
    /** The Temporal UI operators use (TEMPORAL_UI_URL, or the dev server's that `npm start` runs): batches link to their workflow there. */
    temporalUiUrl: nonEmpty(env.TEMPORAL_UI_URL?.replace(/\/+$/, '')),
    taskQueue: env.TASK_QUEUE || TASK_QUEUE,
    dataDir: path.resolve(PROJECT_ROOT, env.DATA_DIR || '.data'),
    urnDomain: env.URN_DOMAIN || 'traceability.local',
    logLevel: env.LOG_LEVEL || 'info',
    /** A prebuilt workflow bundle (see `npm run build`); without it the worker bundles at start-up. */
    workflowBundlePath: nonEmpty(env.WORKFLOW_BUNDLE_PATH),
    /** The worker's Temporal SDK metrics (Prometheus, served by the SDK's core); 0 picks a free port. */
    workerMetricsPort: port('WORKER_METRICS_PORT'),
    /** The worker's own metrics (platform/metrics.ts: batches, events, activities); 0 picks a free port. */
    workerAppMetricsPort: port('WORKER_APP_METRICS_PORT'),
    /** How long POST /Integration/Events waits for the pipeline before answering 202 like the async endpoint. */
    syncWaitSeconds: seconds('SYNC_WAIT_SECONDS', 30),
    /**
     * PIPELINE_LOCAL_MAX_EVENTS: a batch of at most this many events runs its pipeline steps as local
     * activities in one workflow task (workflows/process-event-batch.ts); larger ones as activity tasks.
     * 0 runs every batch's steps as activity tasks. Read where a batch's workflow input is built.
     */
    pipelineLocalMaxEvents: count('PIPELINE_LOCAL_MAX_EVENTS', DEFAULT_PIPELINE_LOCAL_MAX_EVENTS, 0),
    /**
     * API_SYNC_WORKER: the API process runs a worker of its own on the sync task queue (syncTaskQueueOf)
     * and starts a small sync batch's workflow there eagerly: Temporal hands the first workflow task back in
     * the start's answer, so the batch runs in the API without waiting in any queue. Off, such batches wait
     * in that queue for `npm run worker`, which always polls it too.
     */
    apiSyncWorker: flag('API_SYNC_WORKER', env.API_SYNC_WORKER, true),
    /**
     * WORKER_ACTIVITY_SLOTS: the steps a worker runs at once, as local activities (a batch's steps) and as
     * many activity tasks (deliveries, imports, steps gone on as tasks); by default one more than this
     * machine's cores (docs/operations.md says why).
     */
    workerActivitySlots: count('WORKER_ACTIVITY_SLOTS', os.availableParallelism() + 1, 1),
    /** WORKER_ROLE: the task queues `npm run worker` polls (WORKER_ROLES); `all` unless set. */
    workerRole: workerRole(env.WORKER_ROLE),
    /** Batches still `Accepted` after this long are started by the reconciler (batches/reconciler.ts). */
    reconcileAfterSeconds: seconds('RECONCILE_AFTER_SECONDS', 60),
    /** The reconciler's wait between two passes (workflows/reconcile-batches.ts). */
    reconcileEverySeconds: seconds('RECONCILE_EVERY_SECONDS', 60),
    /** A request whose headers and body have not all arrived after this long is answered 408 and closed. */
    requestTimeoutSeconds: seconds('REQUEST_TIMEOUT_SECONDS', 30),
    /** WEBHOOK_ALLOWED_HOSTS: hosts a webhook or subscription may reach although not https or not public. */
    webhookAllowedHosts: parseAllowedHosts(env.WEBHOOK_ALLOWED_HOSTS),
    /**
     * WEBHOOK_RETRY_SECONDS: how long a notification is retried before its endpoint is marked failing: at
     * least the 72 hours receivers are promised, unless set lower (tests); at most 30 days.
     */
    webhookRetrySeconds: seconds('WEBHOOK_RETRY_SECONDS', 72 * 3600, 30 * 86_400),
    /** QUERY_SOCKET_PING_SECONDS: how often an EPCIS query WebSocket is pinged; one that missed the last ping is cut. */
    querySocketPingSeconds: seconds('QUERY_SOCKET_PING_SECONDS', 30),
    /**
     * WORKER_HEARTBEAT_SECONDS: how often a worker tells Temporal it is alive (the SDK's core takes 1-60 s).
     * The API reads it too: /readyz counts a worker silent for heartbeatStaleSeconds as gone, so both must agree.
     */
    workerHeartbeatSeconds: seconds('WORKER_HEARTBEAT_SECONDS', 5, 60),
    /**
     * Fair use per API key and per client address (api/middleware/rate-limit.ts): requests a key may make each
     * second (an account's own limit, `npm run apikey -- limit`, wins).
     */
    rateLimitPerSecond: count('RATE_LIMIT_PER_SECOND', 50, 1),
    /** Requests a key may make above its per-second rate in any minute before it gets 429 (the burst). */
    rateLimitBurst: count('RATE_LIMIT_BURST', 500, 0),
    /** Requests with a wrong API key one client address may make in a minute before they get 429. */
    failedKeysPerMinute: count('FAILED_KEYS_PER_MINUTE', 30, 1),
    /**
     * TRUSTED_PROXIES: the reverse proxies and load balancers in front of the API (addresses, CIDR ranges,
     * or proxy-addr's names loopback, linklocal, uniquelocal). Only from them are X-Forwarded-For,
     * -Proto and -Host believed (api/middleware/client-address.ts).
     */
    trustedProxies: trustedProxies(env.TRUSTED_PROXIES),
  };
}

/** Like loadConfig, for a role that must be pointed at running services. */
export function requireServices(config: Config): Config & { databaseUrl: string; temporalAddress: string } {
  const { databaseUrl, temporalAddress } = config;
  if (!databaseUrl || !temporalAddress) {
    throw new Error('DATABASE_URL and TEMPORAL_ADDRESS must be set (or use `npm start`, which starts both).');
  }
  return { ...config, databaseUrl, temporalAddress };
}
