import type { Sequelize } from 'sequelize';
import type { WebSocket } from 'ws';
import type { BatchFinishedListener } from '../db/batch-finished';
import {
  accountOfCompletedBatch,
  batchesCompletedSince,
  socketReports,
  type SocketSubscription,
} from '../db/repositories/epcis-queries';
import { gs1Signature } from '../domain/epcis/gs1-signature';
import { scheduleMatches, type ScheduleRanges } from '../domain/epcis/subscription-schedule';
import type { Logger } from '../platform/logger';
import { openQuerySockets } from '../platform/metrics';

/** A client that reads slower than its reports arrive is cut off rather than buffered without end. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** WebSocket close codes (RFC 6455, 7.4.1). */
const INTERNAL_ERROR = 1011;
const GOING_AWAY = 1001;
const POLICY_VIOLATION = 1008;
const SERVICE_RESTART = 1012;

export type SocketTiming = { stream: true } | { schedule: ScheduleRanges; reportIfEmpty: boolean };

interface QuerySocket {
  ws: WebSocket;
  subscription: SocketSubscription;
  timing: SocketTiming;
  /** A scheduled socket's first report starts here (initialRecordTime), as a webhook subscription's does. */
  since: Date;
  /** Completed batches of the account not yet reported to this socket. */
  batches: Set<string>;
  /** The report being sent: reports go out one at a time, in order. */
  sending: Promise<void>;
  /** Whether the client answered the last ping. */
  alive: boolean;
}

/**
 * The EPCIS query subscriptions held open over WebSocket by this API process (GS1's REST binding:
 * GET /epcis/queries/{queryName}/events with stream=true or a schedule). They are live only: nothing of
 * them is stored, and they end with their connection.
 *
 * The worker stores events; this process learns of each completed batch from PostgreSQL's
 * batch_finished notification (db/batch-finished.ts, one LISTEN connection per process), reads the
 * batch's matching events of the socket's own account with the query's filter, and sends the same
 * EPCISQueryDocument a webhook subscription is owed for that batch. A stream socket is sent it at once;
 * a scheduled one collects batches until the second its schedule names, read in UTC on this process's
 * clock (a Temporal Schedule runs in the worker and could not reach a connection held here). While the
 * LISTEN connection is down, announcements are lost: every socket is closed (1012) when it drops, and
 * none is opened until it is back, so a client always knows when to catch up with initialRecordTime.
 * The upgrade itself, and the checks of the subscription's parameters, are the route's
 * (api/routes/epcis/query-socket.ts): this is what a subscription does once its socket is open.
 */
export class QuerySockets {
  private readonly byAccount = new Map<string, Set<QuerySocket>>();
  private readonly scheduled = new Set<QuerySocket>();
  private readonly unlisten: () => void;
  private ticker: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  /** The last second (Unix time) whose schedules ran. */
  private lastSecond = 0;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly announcements: BatchFinishedListener,
    private readonly logger: Logger,
    /** QUERY_SOCKET_PING_SECONDS: each socket is pinged this often, and cut when the last ping went unanswered. */
    private readonly pingMs: number,
  ) {
    this.unlisten = announcements.onEach(
      (batchId) => void this.batchFinished(batchId),
      () => this.closeAll(SERVICE_RESTART, 'batch announcements were interrupted; reconnect with initialRecordTime'),
    );
  }

  /** Whether a socket opened now would learn of every batch: not while the announcements' connection is down. */
  get ready(): boolean {
    return this.announcements.listening;
  }

  /**
   * Serves `ws` until it closes. With `initialRecordTime`, the batches the account completed since then
   * are reported first (a stream's at once, a schedule's at its first run), so a client that reconnects
   * with the recordTime it last saw misses nothing in between.
   */
  async open(
    ws: WebSocket,
    subscription: SocketSubscription,
    timing: SocketTiming,
    initialRecordTime: Date | undefined,
  ): Promise<void> {
    // A client gone during the handshake: its close has been and gone, so nothing would release it.
    if (ws.readyState !== ws.OPEN) return;
    if (!this.ready) {
      // The connection dropped during the handshake: the client is told at once, as the open ones were.
      ws.close(SERVICE_RESTART, 'batch announcements were interrupted; reconnect with initialRecordTime');
      return;
    }
    const socket: QuerySocket = {
      ws,
      subscription,
      timing,
      since: initialRecordTime ?? new Date(),
      batches: new Set(),
      sending: Promise.resolve(),
      alive: true,
    };
    const sockets = this.byAccount.get(subscription.accountId) ?? new Set();
    sockets.add(socket);
    this.byAccount.set(subscription.accountId, sockets);
    if ('schedule' in timing) this.scheduled.add(socket);
    openQuerySockets.inc({ mode: 'stream' in timing ? 'stream' : 'schedule' });
    ws.once('close', () => this.release(socket));
    ws.on('pong', () => (socket.alive = true));
    this.heartbeat ??= setInterval(() => this.ping(), this.pingMs);
    ws.on('error', (error) => this.logger.warn({ err: error, subscriptionID: subscription.id }, 'query socket error'));
    if ('schedule' in timing && !this.ticker) {
      this.lastSecond = Math.floor(Date.now() / 1000);
      this.tick();
    }
    // Registered first: a batch completed while the earlier ones are read is announced, not lost.
    if (!initialRecordTime) return;
    try {
      const since = await batchesCompletedSince(this.sequelize, subscription.accountId, initialRecordTime);
      for (const batchId of since) socket.batches.add(batchId);
      if ('stream' in timing && since.length) this.report(socket);
    } catch (error) {
      this.fail(socket, error);
    }
  }

  /** Closes every socket (1001, going away): the process is stopping. A client that does not answer the close within `graceMs` is cut. */
  stop(graceMs: number): void {
    this.unlisten();
    clearTimeout(this.ticker);
    this.ticker = undefined;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    const open = this.closeAll(GOING_AWAY, 'the service is restarting; reconnect');
    setTimeout(() => open.forEach((ws) => ws.terminate()), graceMs).unref();
  }

  /** Closes every socket with `code`: a client told so reconnects, with initialRecordTime to miss nothing. */
  private closeAll(code: number, reason: string): WebSocket[] {
    const open = [...this.byAccount.values()].flatMap((sockets) => [...sockets].map(({ ws }) => ws));
    for (const ws of open) ws.close(code, reason);
    return open;
  }

  private release(socket: QuerySocket): void {
    const { accountId } = socket.subscription;
    const sockets = this.byAccount.get(accountId);
    if (!sockets?.delete(socket)) return;
    if (!sockets.size) this.byAccount.delete(accountId);
    this.scheduled.delete(socket);
    socket.batches.clear();
    openQuerySockets.dec({ mode: 'stream' in socket.timing ? 'stream' : 'schedule' });
    if (!this.scheduled.size) {
      clearTimeout(this.ticker);
      this.ticker = undefined;
    }
    if (!this.byAccount.size) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }

  /**
   * A client gone without a close (its network cut, its device asleep) would hold its socket for ever:
   * one that did not answer the last ping is cut. The pings also keep a quiet socket from a load
   * balancer's idle timeout.
   */
  private ping(): void {
    for (const sockets of this.byAccount.values())
      for (const socket of sockets) {
        if (!socket.alive) {
          socket.ws.terminate();
          continue;
        }
        socket.alive = false;
        socket.ws.ping();
      }
  }

  private async batchFinished(batchId: string): Promise<void> {
    // Most batches belong to accounts with no socket here: no query for those once the account is known.
    if (!this.byAccount.size) return;
    try {
      const accountId = await accountOfCompletedBatch(this.sequelize, batchId);
      for (const socket of (accountId && this.byAccount.get(accountId)) || []) {
        socket.batches.add(batchId);
        if ('stream' in socket.timing) this.report(socket);
      }
    } catch (error) {
      // Whose batch it was is unknown: every socket may have missed it, and each client is told so.
      this.logger.error({ err: error, batchId }, 'could not read a finished batch for the query sockets');
      this.closeAll(INTERNAL_ERROR, 'a batch could not be read; reconnect with initialRecordTime');
    }
  }

  /** Sends the socket's report of the batches collected so far, after the report before it. */
  private report(socket: QuerySocket): void {
    socket.sending = socket.sending.then(async () => {
      if (socket.ws.readyState !== socket.ws.OPEN) return;
      const batchIds = [...socket.batches];
      const reportIfEmpty = 'schedule' in socket.timing && socket.timing.reportIfEmpty;
      if (!batchIds.length && !reportIfEmpty) return;
      socket.batches.clear();
      try {
        const reports = socketReports(this.sequelize, socket.subscription, batchIds, {
          reportIfEmpty,
          ...('schedule' in socket.timing ? { since: socket.since } : {}),
        });
        let first = true;
        for await (const document of reports) {
          if (socket.ws.readyState !== socket.ws.OPEN) return;
          // A client still reading the reports before when new ones come is cut; one report's parts wait for it.
          if (first && socket.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
            socket.ws.close(POLICY_VIOLATION, 'reports are not read fast enough; reconnect with initialRecordTime');
            return;
          }
          first = false;
          const body = JSON.stringify(document);
          const token = socket.subscription.signatureToken;
          // GS1's binding has no header for a frame: a signed one carries the report as a webhook POST would.
          const frame = token
            ? JSON.stringify({ headers: { 'GS1-Signature': gs1Signature(token, body) }, body })
            : body;
          const written = new Promise<void>((resolve) => socket.ws.send(frame, () => resolve()));
          if (socket.ws.bufferedAmount > MAX_BUFFERED_BYTES) await written;
        }
      } catch (error) {
        this.fail(socket, error);
      }
    });
  }

  /** A report that could not be made: the client is told (1011) rather than left missing events unknowingly. */
  private fail(socket: QuerySocket, error: unknown): void {
    this.logger.error({ err: error, subscriptionID: socket.subscription.id }, 'query socket report failed');
    socket.ws.close(INTERNAL_ERROR, 'a report could not be made; reconnect with initialRecordTime');
  }

  /**
   * Waits for the next second, then runs the schedules of each second since the last run once (a timer
   * fires late under load, now and then past a whole second), while a scheduled socket is open.
   */
  private tick(): void {
    if (this.ticker || !this.scheduled.size) return;
    const next = () => {
      this.ticker = undefined;
      const now = Math.floor(Date.now() / 1000);
      // A process stalled longer than a minute runs the last minute's seconds, not every one it slept through.
      for (let second = Math.max(this.lastSecond + 1, now - 59); second <= now; second++) {
        const time = new Date(second * 1000);
        for (const socket of this.scheduled)
          if ('schedule' in socket.timing && scheduleMatches(socket.timing.schedule, time)) this.report(socket);
      }
      this.lastSecond = Math.max(this.lastSecond, now);
      this.tick();
    };
    this.ticker = setTimeout(next, 1000 - (Date.now() % 1000) + 5);
  }
}
