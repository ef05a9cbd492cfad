import { Pool } from 'pg';
import type { Sequelize } from 'sequelize';
import type { ActivityDeps } from '../../activities/deps';
import { PostgresHashChainLedger } from '../../db/repositories/ledger';
import { createSequelize } from '../../db/sequelize';
import { timelineKey } from '../../db/sql';
import { createLogger } from '../../platform/logger';
import type { WebhookSettings } from '../../platform/webhooks';

let pool: Pool | undefined;
let sequelize: Sequelize | undefined;

/** Plain SQL against the test stack's database, for assertions on what was (or was not) stored. */
export function sql(): Pool {
  pool ??= new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
  return pool;
}

/**
 * How many rows the account has in each of `tables` (each with an account_id column): compared before
 * and after a refused request, to show that it stored nothing.
 */
export async function rowCounts(accountId: string, tables: readonly string[]): Promise<Record<string, string>> {
  const columns = tables.map((table) => `(SELECT count(*) FROM ${table} WHERE account_id = $1) AS ${table}`).join(', ');
  const { rows } = await sql().query<Record<string, string>>(`SELECT ${columns}`, [accountId]);
  return rows[0];
}

/** The lock key of the timeline a one-line batch's inventory record is on: what a persist there locks. */
export async function timelineOf(accountId: string, batchId: string): Promise<string> {
  const { rows } = await sql().query<{ product_id: string; lot_serial: string; location_id: string }>(
    `SELECT r.product_id, r.lot_serial, r.location_id FROM inventory_records r JOIN events e ON e.id = r.event_id
      WHERE e.batch_id = $1`,
    [batchId],
  );
  return timelineKey(accountId, rows[0].product_id, rows[0].lot_serial, rows[0].location_id);
}

/** Runs `during` while the test holds the lock of `timeline`: a batch's persist on that timeline waits. */
export async function holdingTimeline(timeline: string, during: () => Promise<void>): Promise<void> {
  const holder = await sql().connect();
  try {
    await holder.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [timeline]);
    await during();
  } finally {
    await holder.query('SELECT pg_advisory_unlock_all()');
    holder.release();
  }
}

/** The models bound to the test stack's database, for factories. */
export function models(): Sequelize {
  sequelize ??= createSequelize(process.env.DATABASE_URL!, 4);
  return sequelize;
}

/** What the worker gives the pipeline's activities, on the test database: for an activity run in a MockActivityEnvironment. */
export function activityDeps(webhooks?: WebhookSettings): ActivityDeps {
  const sequelize = models();
  return {
    sequelize,
    logger: createLogger('silent', 'test'),
    urnDomain: 'test.example',
    ledger: new PostgresHashChainLedger(sequelize),
    webhooks,
  };
}

afterAll(async () => {
  await pool?.end();
  await sequelize?.close();
  pool = undefined;
  sequelize = undefined;
});
