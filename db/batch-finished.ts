import { Client } from 'pg';
import { DEFAULT_BACKOFF } from '../platform/kept-service';
import type { Logger } from '../platform/logger';

const BATCH_FINISHED_CHANNEL = 'batch_finished';

/** The application_name of process `pid`'s listener connection. */
export const listenerName = (pid: number): string => `${BATCH_FINISHED_CHANNEL} listener ${pid}`;

/**
 * One connection per API process listening on batch_finished (migration 20261128000000): a sync call
 * waiting on a batch wakes when the batch's row says Completed or Failed, and the process's EPCIS
 * query WebSockets (usecases/query-sockets.ts) learn of each batch to report. It is a shortcut, never the
 * only way to learn the outcome: while the connection is down (it reconnects with backoff), `finished`
 * simply does not resolve and the caller's other wait, on the workflow, answers.
 */
export class BatchFinishedListener {
  private client: Client | undefined;
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly everyBatch = new Set<(batchId: string) => void>();
  private readonly onLost = new Set<() => void>();
  private stopped = false;
  private delayMs = DEFAULT_BACKOFF.initialMs;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    // Named with its process in pg_stat_activity: an operator (or a test) can tell whose listener it is.
    const client = new Client({ connectionString: this.databaseUrl, application_name: listenerName(process.pid) });
    client.on('notification', (message) => {
      if (message.channel !== BATCH_FINISHED_CHANNEL || !message.payload) return;
      for (const wake of this.waiters.get(message.payload) ?? []) wake();
      for (const listener of this.everyBatch) listener(message.payload);
    });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => undefined);
      if (this.stopped) return;
      for (const listener of this.onLost) listener();
      this.logger.warn(
        { err: error, delayMs: this.delayMs },
        'batch_finished listener lost its connection; sync calls wait on Temporal alone until it is back',
      );
      this.retryLater();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${BATCH_FINISHED_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn({ err: error, delayMs: this.delayMs }, 'batch_finished listener could not connect; retrying');
      this.retryLater();
      return;
    }
    this.client = client;
    this.delayMs = DEFAULT_BACKOFF.initialMs;
  }

  private retryLater(): void {
    this.timer = setTimeout(() => void this.start(), this.delayMs);
    this.delayMs = Math.min(this.delayMs * 2, DEFAULT_BACKOFF.maxMs);
  }

  /** Whether announcements arrive now: while the connection is down, a wait must not count on one. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /**
   * Resolves when batch `batchId` is announced finished; call `cancel` once done waiting. Register
   * before the batch can finish, then read its row: a row already finished needs no announcement.
   */
  waitFor(batchId: string): { finished: Promise<void>; cancel(): void } {
    let wake!: () => void;
    const finished = new Promise<void>((resolve) => (wake = resolve));
    const set = this.waiters.get(batchId) ?? new Set();
    set.add(wake);
    this.waiters.set(batchId, set);
    const cancel = () => {
      set.delete(wake);
      if (!set.size && this.waiters.get(batchId) === set) this.waiters.delete(batchId);
    };
    return { finished, cancel };
  }

  /**
   * Calls `each` with every batch announced finished (Completed or Failed), and `lost` when the
   * connection drops (announcements made until it is back are never seen), until the returned function is called.
   */
  onEach(each: (batchId: string) => void, lost: () => void): () => void {
    this.everyBatch.add(each);
    this.onLost.add(lost);
    return () => {
      this.everyBatch.delete(each);
      this.onLost.delete(lost);
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
