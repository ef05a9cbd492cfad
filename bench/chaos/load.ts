/**
 * The chaos scenarios' traffic: batches of commission and ship events, sent by a careful client that
 * retries 5xx answers and connection failures with the same Idempotency-Key, and a record of what each
 * batch was answered.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventPayload } from '../../domain/events';

export type Mode = 'sync' | 'async';

export const PRODUCT_ID = 'CHAOS-SALMON';
export const LOCATION_ID = 'CHAOS-DOCK';

const PRODUCT = {
  Id: PRODUCT_ID,
  Details: { Name: 'Salmon', SimpleUnitOfMeasurement: 'kg', SharingPolicy: 'Open', ProductIdentifierType: 'Lot' },
};
const LOCATION = {
  Id: LOCATION_ID,
  Details: { Name: 'Dock', TradePartner: { Id: 'SELF', Name: 'Chaos Co', ConnectionType: 'SELF' } },
};

export const runId = (): string => randomBytes(4).toString('hex');

const line = (lot: string, quantity: number, inline = false) => ({
  Quantity: quantity,
  LotSerial: lot,
  Product: inline ? PRODUCT : { Id: PRODUCT_ID },
});

export const commissionEvent = (id: string, lot: string, quantity: number, inline = false): EventPayload =>
  ({
    $type: 'commission',
    Id: id,
    Location: inline ? LOCATION : { Id: LOCATION_ID },
    EventTime: '2024-03-01T10:00:00Z',
    EventTimeZone: '+00:00',
    ProductInstances: [line(lot, quantity, inline)],
  }) as EventPayload;

export const shipEvent = (id: string, lot: string, quantity: number): EventPayload =>
  ({
    $type: 'ship',
    Id: id,
    Location: { Id: LOCATION_ID },
    DestinationLocation: { Id: LOCATION_ID },
    EventTime: '2024-03-02T10:00:00Z',
    EventTimeZone: '+00:00',
    ProductInstances: [line(lot, quantity)],
  }) as EventPayload;

/** The first batch of an account: creates the product and the location every later event names by id. */
export const warmUpBatch = (run: string): EventPayload[] => [commissionEvent(`W-${run}`, `W-${run}`, 1, true)];

/** `count` batches of `size` events: size/2 lots, each commissioned (10) and shipped in part (4) a day later. */
export function lotBatches(run: string, count: number, size: number): EventPayload[][] {
  return Array.from({ length: count }, (_, b) => {
    const lots = Array.from({ length: Math.max(1, Math.floor(size / 2)) }, (_, i) => `${run}-${b}-${i}`);
    return [
      ...lots.map((lot) => commissionEvent(`C-${lot}`, lot, 10)),
      ...lots.map((lot) => shipEvent(`S-${lot}`, lot, 4)),
    ];
  });
}

/** What an event does to inventory: one signed quantity per lot line (only the types this traffic sends). */
export function deltasOf(event: EventPayload): { lot: string; delta: number }[] {
  const e = event as unknown as { $type: string; ProductInstances: { LotSerial: string; Quantity: number }[] };
  const sign = e.$type === 'commission' ? 1 : e.$type === 'ship' ? -1 : 0;
  if (!sign) throw new Error(`chaos traffic has no ${e.$type} events`);
  return e.ProductInstances.map((p) => ({ lot: p.LotSerial, delta: sign * p.Quantity }));
}

export const externalIdOf = (event: EventPayload): string => (event as unknown as { Id: string }).Id;

/** One batch as the client saw it, whatever the number of attempts. */
export interface BatchRun {
  idempotencyKey: string;
  mode: Mode;
  events: EventPayload[];
  attempts: number;
  /** The status that acknowledged the batch: 200, 202, or a 5xx whose body carried a batchId. */
  acknowledgedBy: number | null;
  batchId: string | null;
  /** A 400 answer's error codes: the service refused the batch. */
  refusedWith: string[] | null;
  /** Neither acknowledged nor refused: the client gave up (or got an answer it cannot act on). */
  gaveUp: string | null;
}

/** Every HTTP answer and failure the clients met, across batches and attempts. */
export class Traffic {
  requests = 0;
  inFlight = 0;
  answered = 0;
  readonly http5xx: Record<string, number> = {};
  connectionErrors = 0;
  timeouts = 0;
}

export interface ClientOptions {
  apiUrl: string;
  key: string;
  traffic: Traffic;
  /** True when retrying is pointless (the service has stopped for good). */
  giveUp: () => boolean;
  /** Per batch, across its attempts. */
  deadlineMs?: number;
  /** Per attempt: a sync answer can take a while when the pipeline retries. */
  requestTimeoutMs?: number;
  /** Sent with every request besides the key's (X-Forwarded-For, as a proxy in front would add). */
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  body: unknown;
}

async function postOnce(
  url: string,
  options: ClientOptions,
  idempotencyKey: string,
  events: EventPayload[],
  timeoutMs: number,
): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      ...options.headers,
      'X-API-KEY': options.key,
      'Content-Type': 'application/json',
      'Idempotency-Key': idempotencyKey,
    },
    body: JSON.stringify({ Events: events }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  } catch {
    return { status: response.status, body: text };
  }
}

const field = (body: unknown, name: string): unknown =>
  body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;

/** Sends one batch until it is acknowledged or refused, or the deadline passes. */
export async function submitBatch(
  options: ClientOptions,
  mode: Mode,
  events: EventPayload[],
  idempotencyKey: string,
): Promise<BatchRun> {
  const { traffic } = options;
  const run: BatchRun = {
    idempotencyKey,
    mode,
    events,
    attempts: 0,
    acknowledgedBy: null,
    batchId: null,
    refusedWith: null,
    gaveUp: null,
  };
  const url = `${options.apiUrl}/Integration/Events${mode === 'async' ? '/async' : ''}`;
  const deadline = Date.now() + (options.deadlineMs ?? 120_000);
  let backoff = 250;
  for (;;) {
    run.attempts++;
    traffic.requests++;
    traffic.inFlight++;
    let answer: Answer | undefined;
    let failure = '';
    try {
      answer = await postOnce(url, options, idempotencyKey, events, options.requestTimeoutMs ?? 60_000);
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'TimeoutError' || name === 'AbortError') {
        traffic.timeouts++;
        failure = 'timeout';
      } else {
        traffic.connectionErrors++;
        const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
        failure = cause?.code ?? (error instanceof Error ? error.message : String(error));
      }
    } finally {
      traffic.inFlight--;
    }
    if (answer) {
      traffic.answered++;
      const batchId = field(answer.body, 'batchId');
      if (typeof batchId === 'string') run.batchId = batchId;
      if (answer.status === 200 || answer.status === 202) {
        run.acknowledgedBy = answer.status;
        return run;
      }
      if (answer.status === 400) {
        const errors = field(answer.body, 'errors');
        run.refusedWith = Array.isArray(errors) ? errors.map((e) => String(field(e, 'code'))) : [];
        return run;
      }
      if (answer.status >= 500) {
        traffic.http5xx[answer.status] = (traffic.http5xx[answer.status] ?? 0) + 1;
        // The row is stored and the service will start it: acknowledged, though the client retries.
        if (typeof batchId === 'string' && run.acknowledgedBy === null) run.acknowledgedBy = answer.status;
        failure = `HTTP ${answer.status}`;
      } else {
        run.gaveUp = `HTTP ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`;
        return run;
      }
    }
    if (Date.now() + backoff > deadline || options.giveUp()) {
      run.gaveUp = `last attempt: ${failure}`;
      return run;
    }
    await sleep(backoff);
    backoff = Math.min(backoff * 2, 2000);
  }
}

/** `clients` concurrent clients working through `batches` in order; answers one BatchRun per batch. */
export async function runLoad(
  options: ClientOptions,
  mode: Mode,
  batches: EventPayload[][],
  clients: number,
  keyPrefix: string,
): Promise<BatchRun[]> {
  const runs: BatchRun[] = new Array<BatchRun>(batches.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(clients, batches.length) }, async () => {
      while (next < batches.length) {
        const b = next++;
        runs[b] = await submitBatch(options, mode, batches[b], `${keyPrefix}-${b}`);
      }
    }),
  );
  return runs;
}
