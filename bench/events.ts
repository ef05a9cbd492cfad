/**
 * `npm run bench`: event ingestion through the whole pipeline (HTTP → Temporal → activities →
 * PostgreSQL) against the same rows written with PostgreSQL COPY, on a stack of its own.
 *
 *   BENCH_EVENTS   events through the pipeline (default 20000; half commission, half ship)
 *   BENCH_CLIENTS  concurrent HTTP clients (default 4)
 *   BENCH_LOT      records in the lot used for the historical-insert recalculation (default 10000)
 *
 * Prints one JSON object. Batches are 500 events, the size the README recommends.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { Pool, type PoolClient } from 'pg';
import { createActivities } from '../activities';
import { createApiKey } from '../db/repositories/accounts';
import { PostgresHashChainLedger } from '../db/repositories/ledger';
import { createSequelize } from '../db/sequelize';
import type { EventPayload } from '../domain/events';
import { createLogger } from '../runtime/logger';
import { startStack } from '../test/helpers/stack';

const N = Number(process.env.BENCH_EVENTS ?? 20000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const LOT_RECORDS = Number(process.env.BENCH_LOT ?? 10000);
const BATCH = 500;

const PRODUCT = { Id: 'BENCH-SALMON', Details: { Name: 'Salmon', SimpleUnitOfMeasurement: 'kg', SharingPolicy: 'Open', ProductIdentifierType: 'Lot' } };
const LOCATION = { Id: 'BENCH-DOCK', Details: { Name: 'Dock', TradePartner: { Id: 'SELF', Name: 'Bench Co', ConnectionType: 'SELF' } } };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** One batch: 250 lots commissioned, and each shipped in part a day later. */
function batchOf(b: number, run: string): EventPayload[] {
  const lots = Array.from({ length: BATCH / 2 }, (_, i) => `${run}-${b}-${i}`);
  const at = (day: number) => `2024-03-0${day}T10:00:00`;
  const line = (lot: string, quantity: number) => ({ Quantity: quantity, LotSerial: lot, Product: { Id: PRODUCT.Id } });
  return [
    ...lots.map((lot) => ({ $type: 'commission', Id: `C-${lot}`, Location: { Id: LOCATION.Id }, EventTime: at(1), EventTimeZone: '+00:00', ProductInstances: [line(lot, 10)] })),
    ...lots.map((lot) => ({
      $type: 'ship',
      Id: `S-${lot}`,
      Location: { Id: LOCATION.Id },
      DestinationLocation: { Id: LOCATION.Id },
      EventTime: at(2),
      EventTimeZone: '+00:00',
      ProductInstances: [line(lot, 3)],
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

const csv = (values: (string | number | null)[]) =>
  values.map((v) => (v === null ? '' : typeof v === 'number' ? String(v) : `"${v.replace(/"/g, '""')}"`)).join(',');

/**
 * The rows the pipeline writes for `count` events (events, event_lines, inventory_records), written with
 * server-side COPY from files: the floor of what any ingestion path can cost on this machine.
 */
async function copyRows(
  client: PoolClient,
  ids: { accountId: string; batchId: string; productId: string; locationId: string },
  count: number,
  lotOf: (i: number) => string,
  timeOf: (i: number) => string,
): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-copy-'));
  fs.chmodSync(dir, 0o755);
  const { rows } = await client.query<{ last: string }>(`SELECT setval('event_lines_id_seq', nextval('event_lines_id_seq') + $1) AS last`, [count]);
  const firstLine = BigInt(rows[0].last) - BigInt(count) + 1n;
  const events: string[] = [];
  const lines: string[] = [];
  const records: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const lot = lotOf(i);
    const commission = i % 2 === 0 || count === LOT_RECORDS;
    const payload = JSON.stringify({ $type: commission ? 'commission' : 'ship', Id: `COPY-${id}`, ProductInstances: [{ Quantity: 10, LotSerial: lot, Product: { Id: PRODUCT.Id } }] });
    events.push(csv([id, ids.accountId, ids.batchId, `COPY-${id}`, commission ? 'Commission' : 'Ship', timeOf(i), '+00:00', ids.locationId, `urn:uuid:${id}`, payload]));
    const lineId = String(firstLine + BigInt(i));
    lines.push(csv([lineId, ids.accountId, id, 0, 'instance', ids.productId, lot, 10]));
    records.push(csv([ids.accountId, ids.productId, lot, ids.locationId, id, lineId, timeOf(i), i + 1, commission ? 10 : -3, 0, 0]));
  }
  const files = { events: path.join(dir, 'events.csv'), lines: path.join(dir, 'lines.csv'), records: path.join(dir, 'records.csv') };
  fs.writeFileSync(files.events, events.join('\n'));
  fs.writeFileSync(files.lines, lines.join('\n'));
  fs.writeFileSync(files.records, records.join('\n'));
  for (const file of Object.values(files)) fs.chmodSync(file, 0o644);
  const started = performance.now();
  await client.query('BEGIN');
  await client.query(
    `COPY events (id, account_id, batch_id, external_event_id, type, event_time, event_time_zone, location_id, urn, payload) FROM '${files.events}' (FORMAT csv)`,
  );
  await client.query(`COPY event_lines (id, account_id, event_id, position, role, product_id, lot_serial, quantity) FROM '${files.lines}' (FORMAT csv)`);
  await client.query(
    `COPY inventory_records (account_id, product_id, lot_serial, location_id, event_id, event_line_id, event_time, event_seq, delta, balance, available) FROM '${files.records}' (FORMAT csv)`,
  );
  await client.query('COMMIT');
  const ms = performance.now() - started;
  fs.rmSync(dir, { recursive: true, force: true });
  return ms;
}

async function main(): Promise<void> {
  const stack = await startStack({ LOG_LEVEL: 'warn' });
  const pool = new Pool({ connectionString: stack.state.databaseUrl, max: 4 });
  const sequelize = createSequelize(stack.state.databaseUrl, 4);
  try {
    const { key, account } = await createApiKey(`bench-${Date.now()}`, 'bench');
    const run = randomUUID().slice(0, 8);

    // Master data once, inline, as an integrator's first batch would.
    const warm = await post(stack.state.apiUrl, key, [
      { $type: 'commission', Id: `W-${run}`, Location: LOCATION, EventTime: '2024-03-01T00:00:00', EventTimeZone: '+00:00', ProductInstances: [{ Quantity: 1, LotSerial: `W-${run}`, Product: PRODUCT }] },
    ]);
    if (warm.status !== 200) throw new Error(`warm-up failed: ${JSON.stringify(warm.body)}`);

    const batches = Math.ceil(N / BATCH);
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < batches) {
          const b = next++;
          const t0 = performance.now();
          const response = await post(stack.state.apiUrl, key, batchOf(b, run));
          latencies.push(performance.now() - t0);
          if (response.status !== 200) throw new Error(`batch ${b}: HTTP ${response.status} ${JSON.stringify(response.body).slice(0, 500)}`);
        }
      }),
    );
    const pipelineSeconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);

    // The same number of rows again, with COPY, into the same tables.
    const db = await pool.connect();
    let copyMs: number;
    let recalc: Record<string, number>;
    try {
      const { rows } = await db.query<{ product_id: string; location_id: string; batch_id: string }>(
        `SELECT p.id AS product_id, l.id AS location_id, (SELECT id FROM batches WHERE account_id = $1 LIMIT 1) AS batch_id
           FROM products p, locations l WHERE p.account_id = $1 AND p.external_id = $2 AND l.account_id = $1 AND l.external_id = $3`,
        [account.id, PRODUCT.Id, LOCATION.Id],
      );
      const ids = { accountId: account.id, batchId: rows[0].batch_id, productId: rows[0].product_id, locationId: rows[0].location_id };
      copyMs = await copyRows(db, ids, batches * BATCH, (i) => `COPY-${run}-${Math.floor(i / 2)}`, () => '2024-03-01T10:00:00Z');

      // A lot with LOT_RECORDS records, then a historical ship into its middle through the pipeline.
      const bigLot = `BIG-${run}`;
      const base = Date.parse('2023-01-01T00:00:00Z');
      await copyRows(db, ids, LOT_RECORDS, () => bigLot, (i) => new Date(base + i * 60_000).toISOString());
      const activities = createActivities({ sequelize, logger: createLogger('warn', 'bench'), urnDomain: 'bench', ledger: new PostgresHashChainLedger(sequelize) });
      await activities.recalculateTimeline({ batchId: ids.batchId, accountId: account.id, accountName: account.name });
      const middle = new Date(base + (LOT_RECORDS / 2) * 60_000 + 30_000).toISOString();
      const historical = await post(stack.state.apiUrl, key, [
        {
          $type: 'ship',
          Id: `H-${run}`,
          Location: { Id: LOCATION.Id },
          DestinationLocation: { Id: LOCATION.Id },
          EventTime: middle,
          EventTimeZone: '+00:00',
          ProductInstances: [{ Quantity: 5, LotSerial: bigLot, Product: { Id: PRODUCT.Id } }],
        },
      ]);
      if (historical.status !== 200) throw new Error(`historical ship failed: ${JSON.stringify(historical.body)}`);
      const { rows: batchRows } = await db.query<{ id: string; workflow_id: string }>(
        `SELECT b.id, b.workflow_id FROM batches b JOIN events e ON e.batch_id = b.id WHERE e.account_id = $1 AND e.external_event_id = $2`,
        [account.id, `H-${run}`],
      );
      recalc = await recalcTimings(stack.state.temporalAddress, batchRows[0].workflow_id);
      // The same step again in-process on a timeline whose derived columns were wiped: every record rewritten.
      await db.query(`UPDATE inventory_records SET balance = 0, available = 0 WHERE account_id = $1 AND lot_serial = $2`, [account.id, bigLot]);
      const t0 = performance.now();
      await activities.recalculateTimeline({ batchId: batchRows[0].id, accountId: account.id, accountName: account.name });
      recalc.fullRewriteMs = round(performance.now() - t0);
    } finally {
      db.release();
    }

    const pipelineRate = (batches * BATCH) / pipelineSeconds;
    const copyRate = (batches * BATCH) / (copyMs / 1000);
    console.log(
      JSON.stringify(
        {
          events: batches * BATCH,
          batchSize: BATCH,
          clients: CLIENTS,
          cpus: os.cpus().length,
          pipeline: { seconds: round(pipelineSeconds, 2), eventsPerSecond: Math.round(pipelineRate), batchLatencyMs: { p50: Math.round(percentile(latencies, 50)), p95: Math.round(percentile(latencies, 95)) } },
          copy: { seconds: round(copyMs / 1000, 3), eventsPerSecond: Math.round(copyRate) },
          pipelineToCopyRatio: round(pipelineRate / copyRate, 3),
          historicalInsert: { lotRecords: LOT_RECORDS, ...recalc },
        },
        null,
        2,
      ),
    );
  } finally {
    await pool.end();
    await sequelize.close();
    await stack.stop();
    if (!process.env.KEEP_BENCH_STACK) fs.rmSync(stack.dir, { recursive: true, force: true });
  }
}

/** The recalculation step's duration as the Temporal history recorded it (started → completed). */
async function recalcTimings(address: string, workflowId: string): Promise<Record<string, number>> {
  const connection = await Connection.connect({ address });
  try {
    const history = await new Client({ connection }).workflow.getHandle(workflowId).fetchHistory();
    const events = history.events ?? [];
    const timeOf = (e: (typeof events)[number]) => Number(e.eventTime?.seconds ?? 0) * 1000 + Number(e.eventTime?.nanos ?? 0) / 1e6;
    const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'recalculateTimeline');
    const started = events.find((e) => String(e.activityTaskStartedEventAttributes?.scheduledEventId) === String(scheduled?.eventId));
    const completed = events.find((e) => String(e.activityTaskCompletedEventAttributes?.scheduledEventId) === String(scheduled?.eventId));
    const first = events[0];
    const last = events[events.length - 1];
    return {
      pipelineStepMs: started && completed ? round(timeOf(completed) - timeOf(started)) : -1,
      workflowMs: round(timeOf(last) - timeOf(first)),
    };
  } finally {
    await connection.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
