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
