/**
 * Where a pipeline run's time goes, shared by the events and EPCIS benchmarks: what each process of
 * the stack has counted (CPU, PostgreSQL statements by step, the worker's Temporal RPCs), and the floor
 * of storing a run's rows (PostgreSQL COPY of exactly those rows).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Pool, PoolClient } from 'pg';
import type { RuntimeState } from '../../supervisor/state';
import { cpuMs, grown, processesOf, scrapeAll, usedBetween, type StackProcesses } from './processes';
import { round } from './report';

/**
 * Everything the processes of the stack have counted so far: CPU, statements, the worker's Temporal RPCs.
 * Given `npm start`'s state, extra workers' CPU counts as the worker's; their statements and RPCs are on
 * their own metrics ports, not read. Given the processes themselves, every listed endpoint is read.
 */
export async function snapshot(stack: RuntimeState | StackProcesses, extraWorkerPids: number[] = [], db?: Pool) {
  const processes = 'pids' in stack ? stack : processesOf(stack, extraWorkerPids);
  const { metrics } = processes;
  // Before the scrapes: an API's /metrics runs statements of its own (its gauges), and a window between
  // two snapshots then holds one scrape's, not two.
  const statements = db ? await statementTime(db) : null;
  const [api, worker, sdk] = await Promise.all([
    scrapeAll(metrics.api),
    scrapeAll(metrics.workerApp),
    scrapeAll(metrics.workerSdk),
  ]);
  return { cpu: cpuMs(processes), api, worker, sdk, statements };
}

/**
 * PostgreSQL's time in statements so far, planning and execution apart, from pg_stat_statements where
 * the server loads it (EMBEDDED_PG_STATEMENT_STATS): null elsewhere. Every statement the server ran
 * counts, the bench's own included; execution counts top-level statements only, so a trigger's
 * statements (foreign key checks) count in the statement that fired it.
 */
async function statementTime(db: Pool): Promise<{ planning: number; execution: number } | null> {
  if (!(await statementStatsIn(db))) return null;
  const { rows } = await db.query<{ planning: number; execution: number }>(
    `SELECT coalesce(sum(total_plan_time), 0)::float8 AS planning,
            coalesce(sum(total_exec_time) FILTER (WHERE toplevel), 0)::float8 AS execution FROM pg_stat_statements`,
  );
  return rows[0];
}

/** Whether the server loads pg_stat_statements (its view then made): asked once per pool, not at every snapshot. */
const statementStats = new WeakMap<Pool, Promise<boolean>>();
function statementStatsIn(db: Pool): Promise<boolean> {
  let loaded = statementStats.get(db);
  if (!loaded) {
    loaded = (async () => {
      const { rows } = await db.query<{ loaded: boolean }>(
        "SELECT 'pg_stat_statements' = ANY(regexp_split_to_array(current_setting('shared_preload_libraries'), '\\s*,\\s*')) AS loaded",
      );
      if (rows[0].loaded) await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      return rows[0].loaded;
    })();
    statementStats.set(db, loaded);
  }
  return loaded;
}

export type Snapshot = Awaited<ReturnType<typeof snapshot>>;

/**
 * A labelled counter's growth in the API's and the worker's metrics together: an API with its own worker
 * (API_SYNC_WORKER) runs small sync batches' steps and counts them as the worker counts its own.
 */
export function grownInApiAndWorker(before: Snapshot, after: Snapshot, prefix: string, label: string) {
  const sum = grown(before.api, after.api, prefix, label);
  for (const [key, value] of Object.entries(grown(before.worker, after.worker, prefix, label)))
    sum[key] = (sum[key] ?? 0) + value;
  return sum;
}

/**
 * Per batch: CPU ms by process, PostgreSQL statements by step, the worker's Temporal RPCs by operation,
 * and PostgreSQL's ms planning and executing statements (where both snapshots read them).
 */
export function perBatch(before: Snapshot, after: Snapshot, batches: number) {
  const each = (values: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(values).flatMap(([k, v]) => (round(v / batches) ? [[k, round(v / batches)]] : [])),
    );
  const cpu = usedBetween(before.cpu, after.cpu);
  const statements = grownInApiAndWorker(before, after, 'traceability_db_statements_total', 'step');
  const rpcs = {
    ...grown(before.sdk, after.sdk, 'temporal_request', 'operation'),
    ...grown(before.sdk, after.sdk, 'temporal_long_request', 'operation'),
  };
  const time =
    before.statements && after.statements
      ? {
          planning: after.statements.planning - before.statements.planning,
          execution: after.statements.execution - before.statements.execution,
        }
      : null;
  return {
    cpuMs: each(cpu),
    postgresStatements: each(statements),
    workerTemporalRpcs: each(rpcs),
    ...(time ? { postgresStatementMs: each(time) } : {}),
  };
}

const COPY_ROUNDS = 3;

/** COPY of a run's rows: the median round, as seconds and events per second, and every round's time. */
export interface CopyFloor {
  seconds: number;
  eventsPerSecond: number;
  roundsMs: number[];
}

/**
 * The rows the pipeline wrote for `batchIds` (the batch rows, events with their payloads, lines,
 * inventory records with their final balances, ledger entries, captured events' originals), taken out and written back with
 * server-side COPY in one transaction: the floor of what storing exactly those rows costs here.
 * The rows are taken out and written back COPY_ROUNDS times, and the median is the figure, every round's
 * time beside it: one slow round does not set the floor (the rounds of a run agree within about 10%; the
 * machine moves all of them by up to a third from one run to the next). `events` is how many events
 * those batches hold, for the rate.
 */
export async function copyExactRows(db: PoolClient, batchIds: string[], events: number): Promise<CopyFloor> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-copy-'));
  fs.chmodSync(dir, 0o777); // PostgreSQL's server process writes the files
  const eventIds = 'SELECT id FROM events WHERE batch_id = ANY($1::uuid[])';
  const tables: [string, string][] = [
    ['batches', 'id = ANY($1::uuid[])'],
    ['events', 'batch_id = ANY($1::uuid[])'],
    ['event_lines', `event_id IN (${eventIds})`],
    ['inventory_records', `event_id IN (${eventIds})`],
    ['ledger_entries', `event_id IN (${eventIds})`],
    // Last, so it is deleted first, while the events that name the originals are still there.
    [
      'epcis_originals',
      `id IN (SELECT (payload ->> 'EpcisOriginal')::uuid FROM events WHERE batch_id = ANY($1::uuid[]) AND payload ? 'EpcisOriginal')`,
    ],
  ];
  const fileOf = (table: string) => path.join(dir, `${table}.copy`);
  const literal = `'{${batchIds.join(',')}}'`;
  // Generated columns (batches.failed_event_ids) are computed again on the way in: COPY takes none.
  const columns = new Map<string, string>();
  for (const [table] of tables) {
    const { rows } = await db.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
      [table],
    );
    columns.set(table, rows.map((row) => `"${row.name}"`).join(', '));
  }
  try {
    for (const [table, where] of tables)
      await db.query(
        `COPY (SELECT ${columns.get(table)} FROM ${table} WHERE ${where.replaceAll('$1', literal)}) TO '${fileOf(table)}'`,
      );
    const roundsMs: number[] = [];
    for (let round = 0; round < COPY_ROUNDS; round++) {
      await db.query('BEGIN');
      for (const [table, where] of [...tables].reverse())
        await db.query(`DELETE FROM ${table} WHERE ${where}`, [batchIds]);
      await db.query('COMMIT');
      for (const [table] of tables) await db.query(`VACUUM ${table}`);
      const started = performance.now();
      await db.query('BEGIN');
      for (const [table] of tables) await db.query(`COPY ${table} (${columns.get(table)}) FROM '${fileOf(table)}'`);
      await db.query('COMMIT');
      roundsMs.push(performance.now() - started);
    }
    const seconds = [...roundsMs].sort((a, b) => a - b)[Math.floor(COPY_ROUNDS / 2)] / 1000;
    return {
      seconds: round(seconds, 3),
      eventsPerSecond: Math.round(events / seconds),
      roundsMs: roundsMs.map(Math.round),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
