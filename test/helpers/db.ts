import { Pool } from 'pg';
import type { Sequelize } from 'sequelize';
import { createSequelize } from '../../db/sequelize';

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

/** The models bound to the test stack's database, for factories. */
export function models(): Sequelize {
  sequelize ??= createSequelize(process.env.DATABASE_URL!, 4);
  return sequelize;
}

afterAll(async () => {
  await pool?.end();
  await sequelize?.close();
  pool = undefined;
  sequelize = undefined;
});
