/**
 * `npm run bench`: event ingestion through the whole pipeline (HTTP → Temporal → activities →
 * PostgreSQL), on a stack of its own, against PostgreSQL COPY of exactly the rows the pipeline wrote.
 *
 *   BENCH_EVENTS   events through the pipeline (default 20000; half commission, half ship)
 *   BENCH_CLIENTS  concurrent HTTP clients (default 4)
 *   BENCH_SINGLE   one-event sync calls per shape of the pipeline (its steps as local activities, and
 *                  as activity tasks: PIPELINE_LOCAL_MAX_EVENTS at its default and 0), one client, one
 *                  at a time (default 40)
 *   BENCH_EXTRA_WORKERS  more `npm run worker` processes on the same machine and task queue (default 0)
 *   BENCH_LOT      records in the lot used for the historical-insert recalculation (default 10000)
 *   BENCH_STACK    a file describing a running stack to measure instead of starting one (bench/lib/stack.ts;
 *                  `npm run bench:production` writes it for the production shape)
 *   EMBEDDED_PG_DURABLE  `true` runs the bench's own PostgreSQL with fsync, as users run it (default off)
 *
 * Prints one JSON object. Batches are 500 events, the size the README recommends. Besides the rates it
 * prints where the time goes: CPU milliseconds of each process (API, worker, Temporal, PostgreSQL) and
 * the round trips to PostgreSQL (statements, by step) and to Temporal (the worker's RPCs) per batch,
 * and the medians of each workflow's history (tasks queued, tasks run, each activity).
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { Pool, type PoolClient } from 'pg';
import { createActivities } from '../activities';
import { createApiKey } from '../db/repositories/accounts';
import { PostgresHashChainLedger } from '../db/repositories/ledger';
import { createSequelize } from '../db/sequelize';
import type { EventPayload } from '../domain/events';
import { createLogger } from '../platform/logger';
import { DEFAULT_PIPELINE_LOCAL_MAX_EVENTS } from '../platform/config';
import { breakdownOf, medianBreakdown, timelineOf } from './lib/history';
import { copyExactRows, grownInApiAndWorker, perBatch, snapshot, type CopyFloor, type Snapshot } from './lib/pipeline';
import { startExtraApi, startExtraWorker, type StackProcesses } from './lib/processes';
import { latencyMs, percentile, round, runBench } from './lib/report';
import { benchStack, type BenchStack } from './lib/stack';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchLocation, benchProduct } from './lib/master-data';

const N = Number(process.env.BENCH_EVENTS ?? 20000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const SINGLE = Number(process.env.BENCH_SINGLE ?? 40);
const LOT_RECORDS = Number(process.env.BENCH_LOT ?? 10000);
const EXTRA_WORKERS = Number(process.env.BENCH_EXTRA_WORKERS ?? 0);
const BATCH = 500;

const PRODUCT = benchProduct('BENCH-SALMON', 'Salmon');
const LOCATION = benchLocation('BENCH-DOCK', 'Dock');

const commission = (id: string, lot: string, quantity: number, day = 1) => ({
  $type: 'commission',
  Id: id,
  Location: { Id: LOCATION.Id },
  EventTime: `2024-03-0${day}T10:00:00`,
  EventTimeZone: '+00:00',
  ProductInstances: [{ Quantity: quantity, LotSerial: lot, Product: { Id: PRODUCT.Id } }],
});

/** One batch: 250 lots commissioned, and each shipped in part a day later. */
function batchOf(b: number, run: string): EventPayload[] {
  const lots = Array.from({ length: BATCH / 2 }, (_, i) => `${run}-${b}-${i}`);
  return [
    ...lots.map((lot) => commission(`C-${lot}`, lot, 10)),
    ...lots.map((lot) => ({
      ...commission(`S-${lot}`, lot, 3, 2),
      $type: 'ship',
      DestinationLocation: { Id: LOCATION.Id },
    })),
  ] as EventPayload[];
}

async function post(apiUrl: string, key: string, events: unknown[]): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${apiUrl}/Integration/Events`, {
    method: 'POST',
    headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ Events: events }),
  });
  return { status: response.status, body: await response.json() };
}

// BENCH_EXTRA_WORKERS's processes: their CPU counts as the worker's.
const extraWorkers: ChildProcess[] = [];
// The one-event part's APIs, one per shape of the pipeline.
const extraApis: ChildProcess[] = [];
const extraWorkerPids = () => extraWorkers.map((w) => w.pid!);

const csv = (values: (string | number | null)[]) =>
  values.map((v) => (v === null ? '' : typeof v === 'number' ? String(v) : `"${v.replace(/"/g, '""')}"`)).join(',');

/** A lot of `count` commissions, written with COPY: the stage for the historical insert. */
async function seedLot(
  client: PoolClient,
  ids: { accountId: string; batchId: string; productId: string; locationId: string },
  lot: string,
  count: number,
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lot-'));
  fs.chmodSync(dir, 0o755);
  const base = Date.parse('2023-01-01T00:00:00Z');
  const { rows } = await client.query<{ last: string }>(
    `SELECT setval('event_lines_id_seq', nextval('event_lines_id_seq') + $1) AS last`,
    [count],
  );
  const firstLine = BigInt(rows[0].last) - BigInt(count) + 1n;
  const events: string[] = [];
  const lines: string[] = [];
  const records: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const time = new Date(base + i * 60_000).toISOString();
    const payload = JSON.stringify(commission(`LOT-${id}`, lot, 10));
    events.push(
      csv([
        id,
        ids.accountId,
        ids.batchId,
        `LOT-${id}`,
        'Commission',
        time,
        '+00:00',
        ids.locationId,
        `urn:uuid:${id}`,
        payload,
      ]),
    );
    const lineId = String(firstLine + BigInt(i));
    lines.push(csv([lineId, ids.accountId, id, 0, 'instance', ids.productId, lot, 10]));
    records.push(csv([ids.accountId, ids.productId, lot, ids.locationId, id, lineId, time, i + 1, 10, 0, 0]));
  }
  const files = {
    events: path.join(dir, 'events.csv'),
    lines: path.join(dir, 'lines.csv'),
    records: path.join(dir, 'records.csv'),
  };
  fs.writeFileSync(files.events, events.join('\n'));
  fs.writeFileSync(files.lines, lines.join('\n'));
  fs.writeFileSync(files.records, records.join('\n'));
  for (const file of Object.values(files)) fs.chmodSync(file, 0o644);
  await client.query('BEGIN');
  await client.query(
    `COPY events (id, account_id, batch_id, external_event_id, type, event_time, event_time_zone, location_id, urn, payload) FROM '${files.events}' (FORMAT csv)`,
  );
  await client.query(
    `COPY event_lines (id, account_id, event_id, position, role, product_id, lot_serial, quantity) FROM '${files.lines}' (FORMAT csv)`,
  );
  await client.query(
    `COPY inventory_records (account_id, product_id, lot_serial, location_id, event_id, event_line_id, event_time, event_seq, delta, balance, available) FROM '${files.records}' (FORMAT csv)`,
  );
  await client.query('COMMIT');
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The two shapes of the pipeline the one-event part compares, by PIPELINE_LOCAL_MAX_EVENTS. */
const SHAPES = {
  local: String(DEFAULT_PIPELINE_LOCAL_MAX_EVENTS),
  activities: '0',
} as const;
type Shape = keyof typeof SHAPES;
/** Calls per shape between two measurements; the shapes take turns, so load on the machine hits both alike. */
const BLOCK = 5;

type PerCall = ReturnType<typeof perBatch> & { stepMs: Record<string, number> };

/** The mean of several blocks' per-call figures (each block has BLOCK calls, so the mean is per call). */
function meanOf(blocks: PerCall[]): PerCall {
  const mean = (pick: (b: PerCall) => Record<string, number>) => {
    const sum: Record<string, number> = {};
    for (const block of blocks) for (const [k, v] of Object.entries(pick(block))) sum[k] = (sum[k] ?? 0) + v;
    return Object.fromEntries(Object.entries(sum).map(([k, v]) => [k, round(v / blocks.length)]));
  };
  return {
    cpuMs: mean((b) => b.cpuMs),
    postgresStatements: mean((b) => b.postgresStatements),
    workerTemporalRpcs: mean((b) => b.workerTemporalRpcs),
    ...(blocks.every((b) => b.postgresStatementMs)
      ? { postgresStatementMs: mean((b) => b.postgresStatementMs ?? {}) }
      : {}),
    stepMs: mean((b) => b.stepMs),
  };
}

/**
 * How long each step took in the worker, as its activity interceptor timed it (local activities
 * included): the mean per attempt, in milliseconds.
 */
function stepMsOf(before: Snapshot, after: Snapshot): Record<string, number> {
  const seconds = grownInApiAndWorker(before, after, 'traceability_activity_duration_seconds_sum', 'activity');
  const counts = grownInApiAndWorker(before, after, 'traceability_activity_duration_seconds_count', 'activity');
  return Object.fromEntries(Object.entries(seconds).map(([step, s]) => [step, round((s * 1000) / counts[step])]));
}

/**
 * BENCH_SINGLE sync calls of one commission each, one at a time, per shape of the pipeline: what an
 * integrator sending each scan waits. Each shape has an API of its own (PIPELINE_LOCAL_MAX_EVENTS is read
 * where the batch's workflow input is built); both share the stack's worker, Temporal and PostgreSQL,
 * and take turns in blocks of BLOCK calls.
 */
async function oneEventCalls(stack: BenchStack, temporalClient: Client, db: Pool, key: string, run: string) {
  const apis = {} as Record<Shape, { child: ChildProcess; url: string }>;
  for (const shape of Object.keys(SHAPES) as Shape[]) {
    apis[shape] = await startExtraApi(stack.state, { PIPELINE_LOCAL_MAX_EVENTS: SHAPES[shape] });
    extraApis.push(apis[shape].child);
  }
  const processesOf = (shape: Shape): StackProcesses => {
    const all = stack.processes(extraWorkerPids());
    return {
      pids: { ...all.pids, api: [apis[shape].child.pid!] },
      metrics: { ...all.metrics, api: [`${apis[shape].url}/metrics`] },
    };
  };
  const call = async (shape: Shape, id: string): Promise<number> => {
    const t0 = performance.now();
    const response = await post(apis[shape].url, key, [commission(id, id, 1)]);
    const ms = performance.now() - t0;
    if (response.status !== 200)
      throw new Error(`one-event call ${id}: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 500)}`);
    return ms;
  };
  // Each API's first call pays its connections and compilation: not measured.
  for (const shape of Object.keys(SHAPES) as Shape[]) await call(shape, `ONE-${run}-${shape}-warm`);

  const calls = { local: [], activities: [] } as Record<Shape, { id: string; ms: number }[]>;
  const blocks = { local: [], activities: [] } as Record<Shape, PerCall[]>;
  for (let b = 0; b * BLOCK < SINGLE; b++) {
    // Which shape goes first alternates, so neither always follows the other's tail.
    const order: Shape[] = b % 2 ? ['activities', 'local'] : ['local', 'activities'];
    for (const shape of order) {
      const before = await snapshot(processesOf(shape), [], db);
      const n = Math.min(BLOCK, SINGLE - b * BLOCK);
      for (let i = 0; i < n; i++) {
        const id = `ONE-${run}-${shape}-${b * BLOCK + i}`;
        calls[shape].push({ id, ms: await call(shape, id) });
      }
      const after = await snapshot(processesOf(shape), [], db);
      blocks[shape].push({ ...perBatch(before, after, n), stepMs: stepMsOf(before, after) });
    }
  }

  const report = async (shape: Shape) => {
    const { rows } = await db.query<{ external_event_id: string; workflow_id: string }>(
      `SELECT e.external_event_id, b.workflow_id FROM events e JOIN batches b ON b.id = e.batch_id
        WHERE e.external_event_id = ANY($1::text[])`,
      [calls[shape].map((c) => c.id)],
    );
    const workflowOf = new Map(rows.map((r) => [r.external_event_id, r.workflow_id]));
    const byLatency = [...calls[shape]].sort((a, b) => a.ms - b.ms);
    const sorted = byLatency.map((c) => c.ms);
    const median = byLatency[Math.floor(byLatency.length / 2)];
    return {
      pipelineLocalMaxEvents: Number(SHAPES[shape]),
      latencyMs: { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), min: round(sorted[0]) },
      perCall: meanOf(blocks[shape]),
      history: medianBreakdown(
        await Promise.all(calls[shape].map((c) => breakdownOf(temporalClient, workflowOf.get(c.id)!))),
      ),
      // The history of the call whose latency was the median, as the Temporal UI lists it.
      medianCall: {
        latencyMs: round(median.ms),
        history: await timelineOf(temporalClient, workflowOf.get(median.id)!),
      },
    };
  };
  const local = await report('local');
  const activities = await report('activities');
  return {
    callsPerShape: SINGLE,
    local,
    activities,
    localToActivities: {
      p50: round(local.latencyMs.p50 / activities.latencyMs.p50, 3),
      p95: round(local.latencyMs.p95 / activities.latencyMs.p95, 3),
    },
  };
}

async function main(): Promise<object> {
  const stack = await benchStack();
  const { state } = stack;
  const pool = new Pool({ connectionString: state.databaseUrl, max: 4 });
  const sequelize = createSequelize(state.databaseUrl, 4);
  const connection = await Connection.connect({ address: state.temporalAddress });
  const temporalClient = new Client({ connection });
  try {
    const { key, account } = await createApiKey(`bench-${Date.now()}`, 'bench');
    const run = randomUUID().slice(0, 8);
    const load = os.loadavg()[0];

    // Master data once, inline, as an integrator's first batch would.
    const warm = await post(state.apiUrl, key, [
      {
        ...commission(`W-${run}`, `W-${run}`, 1),
        Location: LOCATION,
        ProductInstances: [{ Quantity: 1, LotSerial: `W-${run}`, Product: PRODUCT }],
      },
    ]);
    if (warm.status !== 200) throw new Error(`warm-up failed: ${JSON.stringify(warm.body)}`);

    const oneEvent = await oneEventCalls(stack, temporalClient, pool, key, run);
    for (let i = 0; i < EXTRA_WORKERS; i++) extraWorkers.push(await startExtraWorker(state));

    const batches = Math.ceil(N / BATCH);
    const latencies: number[] = [];
    let next = 0;
    const before = await snapshot(stack.processes(extraWorkerPids()), [], pool);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        while (next < batches) {
          const b = next++;
          const t0 = performance.now();
          const response = await post(stack.apiUrls[client % stack.apiUrls.length], key, batchOf(b, run));
          latencies.push(performance.now() - t0);
          if (response.status !== 200)
            throw new Error(`batch ${b}: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 500)}`);
        }
      }),
    );
    const pipelineSeconds = (performance.now() - started) / 1000;
    const after = await snapshot(stack.processes(extraWorkerPids()), [], pool);
    latencies.sort((a, b) => a - b);

    const db = await pool.connect();
    let copy: CopyFloor;
    let recalc: Record<string, number>;
    let history;
    try {
      const { rows: batchRows } = await db.query<{ id: string; workflow_id: string }>(
        `SELECT id, workflow_id FROM batches WHERE account_id = $1 AND event_count = $2`,
        [account.id, BATCH],
      );
      history = medianBreakdown(await Promise.all(batchRows.map((r) => breakdownOf(temporalClient, r.workflow_id))));
      copy = await copyExactRows(
        db,
        batchRows.map((r) => r.id),
        batches * BATCH,
      );

      // A lot with LOT_RECORDS records, then a historical ship into its middle through the pipeline.
      const { rows } = await db.query<{ product_id: string; location_id: string; batch_id: string }>(
        `SELECT p.id AS product_id, l.id AS location_id, (SELECT id FROM batches WHERE account_id = $1 LIMIT 1) AS batch_id
           FROM products p, locations l WHERE p.account_id = $1 AND p.external_id = $2 AND l.account_id = $1 AND l.external_id = $3`,
        [account.id, PRODUCT.Id, LOCATION.Id],
      );
      const ids = {
        accountId: account.id,
        batchId: rows[0].batch_id,
        productId: rows[0].product_id,
        locationId: rows[0].location_id,
      };
      const bigLot = `BIG-${run}`;
      await seedLot(db, ids, bigLot, LOT_RECORDS);
      const activities = createActivities({
        sequelize,
        logger: createLogger('warn', 'bench'),
        urnDomain: 'bench',
        ledger: new PostgresHashChainLedger(sequelize),
      });
      await activities.recalculateTimeline({ batchId: ids.batchId, accountId: account.id, accountName: account.name });
      const middle = new Date(Date.parse('2023-01-01T00:00:00Z') + (LOT_RECORDS / 2) * 60_000 + 30_000).toISOString();
      const historical = await post(state.apiUrl, key, [
        {
          ...commission(`H-${run}`, bigLot, 5),
          $type: 'ship',
          EventTime: middle,
          DestinationLocation: { Id: LOCATION.Id },
        },
      ]);
      if (historical.status !== 200) throw new Error(`historical ship failed: ${JSON.stringify(historical.body)}`);
      const { rows: shipRows } = await db.query<{ id: string; workflow_id: string }>(
        `SELECT b.id, b.workflow_id FROM batches b JOIN events e ON e.batch_id = b.id WHERE e.account_id = $1 AND e.external_event_id = $2`,
        [account.id, `H-${run}`],
      );
      const ship = await breakdownOf(temporalClient, shipRows[0].workflow_id);
      recalc = { pipelineStepMs: round(ship.activityMs.recalculateTimeline ?? -1), workflowMs: round(ship.totalMs) };
      // The same step again in-process on a timeline whose derived columns were wiped: every record rewritten.
      await db.query(
        `UPDATE inventory_records SET balance = 0, available = 0 WHERE account_id = $1 AND lot_serial = $2`,
        [account.id, bigLot],
      );
      const t0 = performance.now();
      await activities.recalculateTimeline({
        batchId: shipRows[0].id,
        accountId: account.id,
        accountName: account.name,
      });
      recalc.fullRewriteMs = round(performance.now() - t0);
    } finally {
      db.release();
    }

    const pipelineRate = (batches * BATCH) / pipelineSeconds;
    return {
      stack: stack.label,
      events: batches * BATCH,
      batchSize: BATCH,
      clients: CLIENTS,
      extraWorkers: EXTRA_WORKERS,
      cpus: os.cpus().length,
      loadAverageAtStart: round(load, 2),
      pipeline: {
        seconds: round(pipelineSeconds, 2),
        eventsPerSecond: Math.round(pipelineRate),
        batchLatencyMs: latencyMs(latencies),
        perBatch: perBatch(before, after, batches),
        history,
      },
      copy,
      pipelineToCopyRatio: round(pipelineRate / copy.eventsPerSecond, 3),
      oneEvent,
      historicalInsert: { lotRecords: LOT_RECORDS, ...recalc },
    };
  } finally {
    for (const child of [...extraWorkers, ...extraApis]) child.kill('SIGTERM');
    await connection.close();
    await pool.end();
    await sequelize.close();
    await stack.stop();
  }
}

runBench(main);
