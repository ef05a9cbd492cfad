/**
 * A stack for one chaos scenario: test/helpers/stack.ts's startStack (supervisor/start.ts on free ports, a
 * throw-away DATA_DIR), plus what the scenarios need from outside the service: the pids of its parts, a
 * database connection that survives PostgreSQL restarts, and a way to read the data when the
 * supervisor has given up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { createApiKey } from '../../db/repositories/accounts';
import { createSequelize } from '../../db/sequelize';
import { isAlive } from '../../supervisor/child-process';
import { createLogger } from '../../platform/logger';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../supervisor/postgres';
import { statePath, type RuntimeState } from '../../supervisor/state';
import { startStack, type Stack } from '../../test/helpers/stack';
import { log } from './log';

/** runtime.json as it is today, plus the pids the supervisor that restarts its services publishes. */
export type PublishedState = RuntimeState & { postgresPid?: number | null; temporalPid?: number | null };

/**
 * Low on purpose: a batch left Accepted while Temporal was down is started again within seconds, and a
 * sync client is answered 202 instead of waiting out a long outage. Today's main ignores all three.
 */
export const CHAOS_ENV: NodeJS.ProcessEnv = {
  SYNC_WAIT_SECONDS: '15',
  RECONCILE_AFTER_SECONDS: '5',
  RECONCILE_EVERY_SECONDS: '5',
  LOG_LEVEL: 'warn',
  // startStack turns durability off for speed; with synchronous_commit off a PostgreSQL crash loses the
  // last commits by design, which would blame the service for what the test set-up chose.
  EMBEDDED_PG_DURABLE: 'true',
};

export type Part = 'worker' | 'api' | 'postgres' | 'temporal';

function parentOf(pid: number): number | undefined {
  try {
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

const commandOf = (pid: number): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
};

/** Every process below `root`, parents before children. */
function descendantsOf(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    if (parent !== undefined) parents.set(Number(entry), parent);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    for (const [child, parent] of parents) {
      if (parent === pid) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

export class ChaosStack {
  /** Stacks not stopped yet, and starts under way, for a signal handler to stop on Ctrl-C. */
  static readonly running = new Set<ChaosStack>();
  static readonly starting = new Set<Promise<unknown>>();
  readonly pool: Pool;
  private inspection: EmbeddedPostgres | undefined;
  private inspectionPool: Pool | undefined;
  private gaveUp = false;
  private logOffset = 0;
  private halted: Promise<void> | undefined;

  private constructor(
    readonly stack: Stack,
    readonly state: RuntimeState,
  ) {
    this.pool = new Pool({ connectionString: state.databaseUrl, max: 3, connectionTimeoutMillis: 5000 });
    // PostgreSQL is one of the things we kill: a dropped idle connection must not end this process.
    this.pool.on('error', () => undefined);
  }

  static start(extraEnv: NodeJS.ProcessEnv = {}): Promise<ChaosStack> {
    const starting = startStack({ ...CHAOS_ENV, ...extraEnv }).then((stack) => {
      log(`stack up in ${stack.dir}: API ${stack.state.apiUrl}`);
      const chaos = new ChaosStack(stack, stack.state);
      ChaosStack.running.add(chaos);
      return chaos;
    });
    // Settled only once the stack is in `running`, so a signal handler waiting on it finds it there.
    ChaosStack.starting.add(starting);
    void starting.then(
      () => ChaosStack.starting.delete(starting),
      () => ChaosStack.starting.delete(starting),
    );
    return starting;
  }

  get dir(): string {
    return this.stack.dir;
  }

  get apiUrl(): string {
    return this.state.apiUrl;
  }

  /** False once `npm start` has exited. */
  supervisorAlive(): boolean {
    return this.stack.process.exitCode === null && this.stack.process.signalCode === null;
  }

  /**
   * True once `npm start` has exited or logged a fatal line: today's supervisor stops everything when
   * PostgreSQL or Temporal dies, and its stop can hang for minutes on a worker whose steps retry
   * against the dead part, so its process staying alive does not mean the service is.
   */
  serviceGaveUp(): boolean {
    if (this.gaveUp) return true;
    if (!this.supervisorAlive()) return (this.gaveUp = true);
    try {
      const fd = fs.openSync(path.join(this.dir, 'stack.log'), 'r');
      try {
        const size = fs.fstatSync(fd).size;
        if (size > this.logOffset) {
          const chunk = Buffer.alloc(size - this.logOffset);
          fs.readSync(fd, chunk, 0, chunk.length, this.logOffset);
          // Overlap the next read a little, so a line cut at the end of this one is still seen.
          this.logOffset = Math.max(0, size - 32);
          if (chunk.includes('"level":60')) this.gaveUp = true;
        }
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      // no log yet
    }
    return this.gaveUp;
  }

  /** runtime.json as last written, also after the supervisor has exited and removed it (then the first copy). */
  published(): PublishedState {
    try {
      return JSON.parse(fs.readFileSync(statePath(this.dir), 'utf8')) as PublishedState;
    } catch {
      return this.state;
    }
  }

  /** The pid of a part as the stack publishes it now; for PostgreSQL and Temporal, found when not published. */
  pidOf(part: Part): number | undefined {
    const state = this.published();
    if (part === 'worker') return state.workerPid ?? undefined;
    if (part === 'api') return state.apiPid ?? undefined;
    if (part === 'postgres') {
      if (state.postgresPid) return state.postgresPid;
      try {
        return Number(fs.readFileSync(path.join(this.dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined;
      } catch {
        return undefined;
      }
    }
    if (state.temporalPid) return state.temporalPid;
    // `temporal` may be a shim that execs the real binary: take the deepest match.
    return descendantsOf(state.pid)
      .filter((pid) => commandOf(pid).includes('start-dev'))
      .pop();
  }

  /** SIGKILL a part; answers the pid killed. */
  kill(part: Part): number {
    const pid = this.pidOf(part);
    if (!pid || !isAlive(pid)) throw new Error(`no live ${part} process to kill (pid ${pid})`);
    process.kill(pid, 'SIGKILL');
    log(`SIGKILL ${part} (pid ${pid})`);
    return pid;
  }

  /** An account with an API key, made through the service's own repository code. */
  async createAccount(name: string): Promise<{ key: string; accountId: string }> {
    const sequelize = createSequelize(this.state.databaseUrl, 1);
    try {
      const { key, account } = await createApiKey(name, 'chaos');
      return { key, accountId: account.id };
    } finally {
      await sequelize.close();
    }
  }

  /**
   * A pool on the scenario's data: the service's own PostgreSQL while the supervisor runs, else the
   * same cluster started read-side by us, so a stack that gave up can still be counted.
   */
  async database(): Promise<Pool> {
    if (!this.serviceGaveUp()) return this.pool;
    if (this.inspectionPool) return this.inspectionPool;
    await this.halt();
    const dataDir = path.join(this.dir, 'pg');
    let lastError: unknown;
    // Backends of a SIGKILLed postmaster hold its shared memory for a moment after it died.
    for (let attempt = 0; attempt < 30; attempt++) {
      try {
        this.inspection = await startEmbeddedPostgres({
          dataDir,
          logger: createLogger('warn', 'chaos'),
          durable: false,
        });
        break;
      } catch (error) {
        lastError = error;
        await sleep(1000);
      }
    }
    if (!this.inspection)
      throw new Error(`could not start PostgreSQL on ${dataDir} to count what was stored: ${String(lastError)}`);
    log(`the service gave up: counting on a PostgreSQL of our own over ${dataDir}`);
    this.inspectionPool = new Pool({ connectionString: this.inspection.url, max: 2 });
    this.inspectionPool.on('error', () => undefined);
    return this.inspectionPool;
  }

  /** The service's own error and fatal log lines (distinct messages, at most `limit`): why it gave up, when it did. */
  errorsLogged(limit = 5): string[] {
    let text = '';
    try {
      text = fs.readFileSync(path.join(this.dir, 'stack.log'), 'utf8');
    } catch {
      return [];
    }
    const messages = new Set<string>();
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        const entry = JSON.parse(line) as { level?: number; name?: string; msg?: string };
        if ((entry.level ?? 0) >= 50 && entry.msg) messages.add(`${entry.name ?? '?'}: ${entry.msg}`.slice(0, 200));
      } catch {
        // a line that is not one of ours
      }
    }
    return [...messages].slice(0, limit);
  }

  /** Stops every process of the stack (bounded; idempotent), keeping its data. */
  halt(): Promise<void> {
    this.halted ??= this.haltOnce();
    return this.halted;
  }

  private async haltOnce(): Promise<void> {
    await this.pool.end().catch(() => undefined);
    // Taken before stopping, while they are surely ours: a supervisor that exits mid-stop leaves
    // the worker, the API or PostgreSQL behind, and only these (same pid, same command) are killed
    // afterwards. PostgreSQL runs durable here, so a SIGKILL loses nothing it committed.
    const root = this.stack.process.pid;
    const ours = root ? descendantsOf(root).map((pid) => ({ pid, command: commandOf(pid) })) : [];
    let timer: NodeJS.Timeout | undefined;
    const stopped = await Promise.race([
      this.stack.stop().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 60_000);
      }),
    ]);
    // A pending timer would keep the process (and jest) alive for a minute after everything stopped.
    clearTimeout(timer);
    if (!stopped) log('stack did not stop within 60 s: SIGKILL its processes');
    const left = ours.filter(({ pid, command }) => isAlive(pid) && commandOf(pid) === command);
    if (left.length) log(`SIGKILL ${left.length} process(es) the supervisor left behind`);
    for (const { pid } of left) process.kill(pid, 'SIGKILL');
    if (!stopped) this.stack.process.kill('SIGKILL');
  }

  /** Stops everything this stack started and removes its data; bounded, and safe to call twice. */
  async stop(): Promise<void> {
    ChaosStack.running.delete(this);
    await this.halt();
    await this.inspectionPool?.end().catch(() => undefined);
    await this.inspection?.stop().catch(() => undefined);
    this.inspectionPool = undefined;
    this.inspection = undefined;
    if (!process.env.KEEP_CHAOS_STACK) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Where a scenario's stack comes from, and what becomes of it once the scenario is counted. A scenario
 * counts its own account's batches only, so it may run on a stack an earlier one used.
 */
export interface StackSource {
  take(env?: NodeJS.ProcessEnv): Promise<ChaosStack>;
  release(stack: ChaosStack): Promise<void>;
}

/** A stack of its own for each scenario, stopped and removed after it (`npm run chaos`: no figure carries an earlier scenario's load). */
export const OWN_STACK: StackSource = {
  take: (env) => ChaosStack.start(env),
  release: (stack) => stack.stop(),
};

/**
 * The stack the last scenario used, kept for the next one that asks for the same environment (test/chaos/:
 * each start costs seconds of CPU). A new one replaces it when the environment differs or when it is no
 * longer whole (its supervisor gone or a fatal line logged); the one replaced stops meanwhile. prepare()
 * starts the stack of an environment a later scenario asks for while the scenarios before it run, one start
 * after the other; stop() ends every stack kept, prepared or stopping.
 */
export class SharedStacks implements StackSource {
  private kept: { key: string; stack: ChaosStack } | undefined;
  private readonly prepared = new Map<string, Promise<ChaosStack>>();
  /** The last start prepare() made: the next one waits for it. */
  private lastStart: Promise<unknown> = Promise.resolve();
  private readonly stopping = new Set<Promise<void>>();

  private static keyOf(env: NodeJS.ProcessEnv): string {
    return JSON.stringify(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)));
  }

  /** Starts a stack for `env` once the last one prepare() started is up, for a take(env) to come. */
  prepare(env: NodeJS.ProcessEnv = {}): void {
    const key = SharedStacks.keyOf(env);
    if (this.prepared.has(key) || this.kept?.key === key) return;
    const starting = this.lastStart.then(
      () => ChaosStack.start(env),
      () => ChaosStack.start(env),
    );
    starting.catch(() => undefined); // its take() reports it
    this.prepared.set(key, starting);
    this.lastStart = starting;
  }

  async take(env: NodeJS.ProcessEnv = {}): Promise<ChaosStack> {
    const key = SharedStacks.keyOf(env);
    if (this.kept?.key === key && !this.kept.stack.serviceGaveUp()) return this.kept.stack;
    this.retire();
    const prepared = this.prepared.get(key);
    this.prepared.delete(key);
    let stack = prepared ? await prepared : await ChaosStack.start(env);
    if (stack.serviceGaveUp()) {
      this.retire(stack);
      stack = await ChaosStack.start(env);
    }
    this.kept = { key, stack };
    return stack;
  }

  async release(): Promise<void> {
    // kept for the next scenario
  }

  /** Stops the kept stack (or `stack`) without waiting for it: stop() does. */
  private retire(stack = this.kept?.stack): void {
    if (stack === this.kept?.stack) this.kept = undefined;
    if (!stack) return;
    const stopped = stack.stop();
    this.stopping.add(stopped);
    // A failed stop stays in `stopping`, for stop() to report.
    stopped.then(
      () => this.stopping.delete(stopped),
      () => undefined,
    );
  }

  async stop(): Promise<void> {
    this.retire();
    const prepared = [...this.prepared.values()];
    this.prepared.clear();
    for (const stack of await Promise.allSettled(prepared)) if (stack.status === 'fulfilled') this.retire(stack.value);
    await Promise.all([...this.stopping]);
  }
}
