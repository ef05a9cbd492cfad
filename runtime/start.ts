import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { migrateUp } from '../db/migrate';
import { createSequelize } from '../db/sequelize';
import { buildWorkflowBundle } from '../worker/bundle';
import { loadConfig } from './config';
import { createLogger, type Logger } from './logger';
import { freePort } from './net';
import { startEmbeddedPostgres } from './postgres';
import { statePath, writeState, type RuntimeState } from './state';
import { MissingTemporalCliError, startTemporalDevServer } from './temporal';

type Role = 'api' | 'worker';

interface Stoppable {
  stop(): Promise<void>;
}

/**
 * `npm start`: the whole service on one machine. PostgreSQL and Temporal are used when configured and
 * started as children otherwise; the worker and the API always run as supervised child processes
 * (restarted if they die), exactly the entry points `npm run worker` and `npm run api` use.
 */
class Supervisor {
  private readonly services: Stoppable[] = [];
  private readonly children = new Map<Role, ChildProcess>();
  private stopping = false;
  private state!: RuntimeState;

  constructor(
    private readonly logger: Logger,
    private readonly dataDir: string,
  ) {}

  async start(): Promise<void> {
    const config = loadConfig();
    fs.mkdirSync(this.dataDir, { recursive: true });

    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const pg = await startEmbeddedPostgres({
        dataDir: path.join(this.dataDir, 'pg'),
        port: Number(process.env.EMBEDDED_PG_PORT) || undefined,
        logger: this.logger,
        durable: process.env.EMBEDDED_PG_DURABLE !== 'false',
      });
      this.services.unshift(pg);
      this.watchService('PostgreSQL', pg.process);
      databaseUrl = pg.url;
    }

    let temporalAddress = config.temporalAddress;
    let temporalUiUrl: string | null = null;
    if (!temporalAddress) {
      const temporal = await startTemporalDevServer({
        cliPath: config.temporalCliPath,
        dbFile: path.join(this.dataDir, 'temporal.db'),
        port: config.temporalPort,
        uiPort: config.temporalUiPort === 0 ? null : config.temporalUiPort,
        namespace: config.temporalNamespace,
      });
      this.services.unshift(temporal);
      this.watchService('Temporal', temporal.process);
      temporalAddress = temporal.address;
      temporalUiUrl = temporal.uiUrl ?? null;
    }

    const sequelize = createSequelize(databaseUrl, 2);
    const applied = await migrateUp(sequelize, databaseUrl);
    await sequelize.close();
    if (applied.length) this.logger.info({ applied }, 'migrations applied');

    const bundle = config.workflowBundlePath ?? (await buildWorkflowBundle(path.join(this.dataDir, 'workflow-bundle.js')));
    // Fixed ports for the worker's metrics, also when "0" asked for free ones: a restarted worker keeps them.
    const workerMetricsPort = config.workerMetricsPort || (await freePort());
    const workerAppMetricsPort = config.workerAppMetricsPort || (await freePort());
    const env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      WORKFLOW_BUNDLE_PATH: bundle,
      WORKER_METRICS_PORT: String(workerMetricsPort),
      WORKER_APP_METRICS_PORT: String(workerAppMetricsPort),
    };

    this.state = {
      pid: process.pid,
      apiUrl: '',
      apiMetricsUrl: '',
      workerAppMetricsUrl: `http://127.0.0.1:${workerAppMetricsPort}/metrics`,
      workerSdkMetricsUrl: `http://127.0.0.1:${workerMetricsPort}/metrics`,
      databaseUrl,
      temporalAddress,
      temporalUiUrl,
      apiPid: null,
      workerPid: null,
    };
    await this.spawn('worker', env);
    const { port } = await this.spawn('api', env);
    this.state.apiUrl = `http://127.0.0.1:${port}`;
    this.state.apiMetricsUrl = `${this.state.apiUrl}/metrics`;
    writeState(this.dataDir, this.state);

    this.logger.info(
      {
        api: this.state.apiUrl,
        docs: `${this.state.apiUrl}/docs`,
        openapi: `${this.state.apiUrl}/openapi.json`,
        metrics: {
          api: this.state.apiMetricsUrl,
          worker: this.state.workerAppMetricsUrl,
          workerTemporalSdk: this.state.workerSdkMetricsUrl,
        },
        temporalUi: temporalUiUrl ?? (config.temporalAddress ? '(external Temporal: see its own UI)' : '(disabled: TEMPORAL_UI_PORT=0)'),
        temporal: temporalAddress,
        database: databaseUrl.replace(/:[^:@/]+@/, ':***@'),
        taskQueue: config.taskQueue,
      },
      `traceability service ready: API ${this.state.apiUrl}, docs ${this.state.apiUrl}/docs` +
        (temporalUiUrl ? `, Temporal UI ${temporalUiUrl}` : '') +
        `; metrics: API ${this.state.apiMetricsUrl}, worker ${this.state.workerAppMetricsUrl}, worker Temporal SDK ${this.state.workerSdkMetricsUrl}`,
    );
  }

  private watchService(name: string, child: ChildProcess): void {
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      this.logger.fatal({ code, signal }, `${name} exited unexpectedly; stopping the service`);
      void this.stop(1);
    });
  }

  private spawn(role: Role, env: NodeJS.ProcessEnv): Promise<{ port?: number }> {
    const entry = path.join(__dirname, '..', role === 'api' ? 'api' : 'worker', `main${path.extname(__filename)}`);
    const child = fork(entry, [], { env, execArgv: process.execArgv, stdio: 'inherit' });
    this.children.set(role, child);
    this.state[role === 'api' ? 'apiPid' : 'workerPid'] = child.pid ?? null;
    return new Promise((resolve, reject) => {
      child.on('message', (message: { type?: string; port?: number }) => {
        if (message?.type === 'ready') resolve(message);
      });
      child.once('exit', (code, signal) => {
        reject(new Error(`${role} exited during start-up (code ${code}, signal ${signal})`));
        if (this.stopping) return;
        this.logger.error({ role, code, signal }, `${role} exited; restarting it`);
        setTimeout(() => {
          if (this.stopping) return;
          this.spawn(role, role === 'api' ? { ...env, PORT: new URL(this.state.apiUrl).port } : env).then(
            () => writeState(this.dataDir, this.state),
            (error: unknown) => this.logger.error({ err: error, role }, 'restart failed'),
          );
        }, 1000);
      });
    });
  }

  async stop(exitCode = 0): Promise<never> {
    if (!this.stopping) {
      this.stopping = true;
      this.logger.info('stopping');
      await Promise.all(
        [...this.children.values()].map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }),
        ),
      );
      for (const service of this.services) await service.stop().catch(() => undefined);
      fs.rmSync(statePath(this.dataDir), { force: true });
      this.logger.info('stopped');
    }
    process.exit(exitCode);
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'start');
  const supervisor = new Supervisor(logger, config.dataDir);
  process.once('SIGINT', () => void supervisor.stop());
  process.once('SIGTERM', () => void supervisor.stop());
  try {
    await supervisor.start();
  } catch (error) {
    if (error instanceof MissingTemporalCliError) logger.fatal(error.message);
    else logger.fatal({ err: error }, 'start-up failed');
    await supervisor.stop(1);
  }
}

void main();
