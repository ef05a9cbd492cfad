import type { ChildProcess } from 'node:child_process';
import type { Logger } from './logger';

export interface RunningService {
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface Backoff {
  initialMs: number;
  maxMs: number;
  /** Up this long, a service that dies again starts over from initialMs. */
  resetAfterMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000, resetAfterMs: 60_000 };

/**
 * A server the supervisor started (PostgreSQL, the Temporal dev server) and restarts whenever it dies,
 * with the same `start` (so on the same port: the API and the worker were given its address), retrying
 * with exponential backoff until it is up again.
 */
export class KeptService<T extends RunningService> {
  private stopping = false;
  private startedAt = Date.now();
  private delayMs: number;
  private timer: NodeJS.Timeout | undefined;
  private attempt: Promise<void> | undefined;
  private readonly aborted = new AbortController();

  private constructor(
    private readonly name: string,
    private readonly logger: Logger,
    private readonly startService: (signal: AbortSignal) => Promise<T>,
    private readonly onRestart: (service: T) => void,
    private readonly backoff: Backoff,
    public current: T,
  ) {
    this.delayMs = backoff.initialMs;
    this.watch();
  }

  static async start<T extends RunningService>(options: {
    name: string;
    logger: Logger;
    /** Gives up, stopping what it started, when the signal aborts: a stop must not wait for a slow start. */
    start: (signal: AbortSignal) => Promise<T>;
    onRestart: (service: T) => void;
    backoff?: Backoff;
    /** Aborts the first start (the supervisor stopping during start-up). */
    signal?: AbortSignal;
  }): Promise<KeptService<T>> {
    const first = await options.start(options.signal ?? new AbortController().signal);
    return new KeptService(
      options.name,
      options.logger,
      options.start,
      options.onRestart,
      options.backoff ?? DEFAULT_BACKOFF,
      first,
    );
  }

  private watch(): void {
    const { process: child } = this.current;
    this.startedAt = Date.now();
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      if (Date.now() - this.startedAt >= this.backoff.resetAfterMs) this.delayMs = this.backoff.initialMs;
      this.logger.error(
        { service: this.name, pid: child.pid, code, signal },
        `${this.name} exited unexpectedly; restarting it`,
      );
      this.schedule(1, Date.now());
    });
  }

  private schedule(attempt: number, downSince: number): void {
    const delayMs = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, this.backoff.maxMs);
    this.logger.info(
      { service: this.name, attempt, delayMs },
      `restarting ${this.name} in ${delayMs} ms (attempt ${attempt})`,
    );
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.attempt = this.restart(attempt, downSince).finally(() => (this.attempt = undefined));
    }, delayMs);
  }

  private async restart(attempt: number, downSince: number): Promise<void> {
    if (this.stopping) return;
    let service: T;
    try {
      service = await this.startService(this.aborted.signal);
    } catch (error) {
      this.logger.warn({ service: this.name, attempt, err: error }, `${this.name} restart attempt ${attempt} failed`);
      if (!this.stopping) this.schedule(attempt + 1, downSince);
      return;
    }
    if (this.stopping) {
      await service.stop();
      return;
    }
    this.current = service;
    const downMs = Date.now() - downSince;
    this.logger.info(
      { service: this.name, attempt, pid: service.process.pid, downMs },
      `${this.name} restarted (attempt ${attempt}, down ${downMs} ms)`,
    );
    this.onRestart(service);
    this.watch();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.aborted.abort();
    await this.attempt;
    await this.current.stop();
  }
}
