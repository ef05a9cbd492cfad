import path from 'node:path';
import { Client } from 'pg';
import type { Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';

export interface MigrationContext {
  sequelize: Sequelize;
}

export type Migration = (params: { context: MigrationContext }) => Promise<void>;

/** Any fixed number: serialises migrations of processes that start together (api and worker). */
const MIGRATION_LOCK = 7_300_001;

export function createMigrator(sequelize: Sequelize, logger?: Pick<Console, 'info'>) {
  return new Umzug<MigrationContext>({
    migrations: {
      glob: ['migrations/*.{ts,js}', { cwd: __dirname, ignore: ['**/*.d.ts'] }],
    },
    context: { sequelize },
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: logger ? { info: (m) => logger.info(m), warn: (m) => logger.info(m), error: (m) => logger.info(m), debug: () => undefined } : undefined,
  });
}

/** Brings the schema up to date; safe to call from several processes at once. */
export async function migrateUp(sequelize: Sequelize, databaseUrl: string): Promise<string[]> {
  // A session lock must live on one connection, so it is held by a client of its own, not the pool.
  const lock = new Client({ connectionString: databaseUrl });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await createMigrator(sequelize).up();
    return applied.map((m) => path.basename(m.name));
  } finally {
    await lock.end();
  }
}
