import http from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';

/**
 * The service's own Prometheus metrics. Each process (API, worker) has its own copy of this registry
 * and registers the metrics of its role only (enableProcessMetrics): HTTP in the API, the pipeline in
 * the worker's activities; a metric the process never moves would read as a misleading 0.
 * Names carry the `traceability_` prefix so they sit apart from the Temporal SDK's own metrics.
 */
export const registry = new Registry();

// Registered by role in enableProcessMetrics, not on creation.
const registers: Registry[] = [];

const counter = <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) =>
  new Counter<L>({ name, help, labelNames, registers });

/** Labels: route is the router's template (`/Integration/Locations/:id`), never the raw URL. */
export const httpRequests = counter(
  'traceability_http_requests_total',
  'HTTP requests answered, by method, route template and status.',
  ['method', 'route', 'status'],
);

export const httpRequestDuration = new Histogram({
  name: 'traceability_http_request_duration_seconds',
  help: 'Time from receiving a request to answering it, by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers,
});

/** Schema errors (and other refusals) of event requests: nothing was stored, no batch exists to look at. */
export const batchRequestsRefused = counter(
  'traceability_batch_requests_refused_total',
  'Event requests refused before they became batches (schema or value errors), by route template and error code.',
  ['route', 'code'],
);

export const batchesStarted = counter('traceability_batches_started_total', 'Event batches whose pipeline started.');

export const batchesCompleted = counter('traceability_batches_completed_total', 'Event batches stored completely.');

export const batchesFailed = counter(
  'traceability_batches_failed_total',
  'Event batches rejected or failed, by reason (a validation code such as InsufficientInventory, or an error type).',
  ['reason'],
);

export const eventsPersisted = counter(
  'traceability_events_persisted_total',
  'Events stored, by event type (commission, ship, ...).',
  ['type'],
);

export const inventoryRejections = counter(
  'traceability_inventory_rejections_total',
  'Consuming event lines refused for insufficient inventory, by event type.',
  ['type'],
);

export const activityDuration = new Histogram({
  name: 'traceability_activity_duration_seconds',
  help: 'Duration of each activity attempt, by activity type and outcome (completed, failed).',
  labelNames: ['activity', 'outcome'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers,
});

export const openQuerySockets = new Gauge({
  name: 'traceability_epcis_query_sockets_open',
  help: 'EPCIS query subscriptions held open over WebSocket by this API process, by mode (stream or schedule).',
  labelNames: ['mode'] as const,
  registers,
});

/**
 * Every statement a process sends PostgreSQL (BEGIN and COMMIT included: Sequelize sends them as
 * queries too), by what sent it: the activity type in the worker, `request` in the API. A statement is
 * a round trip, so this is what "fewer statements per step" is measured by (`npm run bench` reads it).
 */
export const dbStatements = counter(
  'traceability_db_statements_total',
  'Statements sent to PostgreSQL (each one round trip), by step: an activity type in the worker, request in the API.',
  ['step'],
);

/** Counts a statement under the step `stepOf` names when it is sent (for db/sql's onEveryStatement). */
export const statementCounter =
  (stepOf: () => string): (() => void) =>
  () =>
    dbStatements.inc({ step: stepOf() });

const ROLE_METRICS: Record<'api' | 'worker', readonly Metric[]> = {
  api: [httpRequests, httpRequestDuration, batchRequestsRefused, openQuerySockets, dbStatements],
  worker: [
    batchesStarted,
    batchesCompleted,
    batchesFailed,
    eventsPersisted,
    inventoryRejections,
    activityDuration,
    dbStatements,
  ],
};

let processMetrics = false;

/**
 * The metrics of this process's roles (an API with API_SYNC_WORKER has a worker's too), and its CPU,
 * memory, event-loop lag; called by the entry points, not on import, so tests stay quiet.
 */
export function enableProcessMetrics(...roles: ('api' | 'worker')[]): void {
  if (processMetrics) return;
  processMetrics = true;
  for (const metric of new Set(roles.flatMap((role) => ROLE_METRICS[role]))) registry.registerMetric(metric);
  collectDefaultMetrics({ register: registry, prefix: 'traceability_' });
}

/** What the batch gauges of /metrics show (registerBatchGauges below; db/queries/batch-health.ts reads it). */
export interface BatchHealth {
  failed: { account: string; code: string; count: number }[];
  oldestPendingSeconds: number;
}

/**
 * Gauges of the batches table, computed when Prometheus scrapes (so every API process answers the same,
 * and nothing goes stale between scrapes): alerts fire on failures that nobody retried, and on a batch
 * stuck in Accepted/Running.
 */
export function registerBatchGauges(read: () => Promise<BatchHealth>): void {
  // One read serves both gauges of a scrape. A database that does not answer must not fail the whole
  // scrape (the HTTP metrics would go with it): the failed gauge is then empty and the age NaN, unknown.
  let pending: Promise<BatchHealth | null> | undefined;
  const once = (): Promise<BatchHealth | null> => {
    pending ??= read()
      .catch(() => null)
      .finally(() => setImmediate(() => (pending = undefined)));
    return pending;
  };
  new Gauge({
    name: 'traceability_batches_failed_open',
    help: 'Batches that failed in the last 24 hours and are not retried, not replaced (their events stored since by another batch) and not abandoned, by account and first error code.',
    labelNames: ['account', 'code'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { account, code, count } of (await once())?.failed ?? []) this.set({ account, code }, count);
    },
  });
  new Gauge({
    name: 'traceability_batches_oldest_pending_age_seconds',
    help: 'Age of the oldest batch still Accepted or Running (0 when none): a batch this old is stuck.',
    registers: [registry],
    async collect() {
      const health = await once();
      this.set(health ? health.oldestPendingSeconds : Number.NaN);
    },
  });
}

/**
 * Lots that read negative at a location (EPCIS captures record an overdraw instead of refusing it), by
 * account, computed when Prometheus scrapes: the count falls back once the missing event arrives.
 */
export function registerInventoryGauges(read: () => Promise<{ account: string; count: number }[]>): void {
  new Gauge({
    name: 'traceability_inventory_negative_lots',
    help: 'Lots (product, lot, location) whose inventory timeline goes below zero, by account: an event that added them is missing.',
    labelNames: ['account'] as const,
    registers: [registry],
    async collect() {
      // A database that does not answer must not fail the whole scrape: the gauge is then empty.
      const counts = await read().catch(() => []);
      this.reset();
      for (const { account, count } of counts) this.set({ account }, count);
    },
  });
}

/** A bare HTTP server for a process that has no Koa app (the worker): GET /metrics, nothing else. */
export function serveMetrics(port: number, host = '0.0.0.0'): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      (error: Error) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${error.message}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

export const portOf = (server: http.Server): number => {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
};
