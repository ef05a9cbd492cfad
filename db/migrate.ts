import path from 'node:path';
import { Client } from 'pg';
import type { Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';

export interface MigrationContext {
  sequelize: Sequelize;
}

export type Migration = (params: { context: MigrationContext }) => Promise<void>;

/**
 * Migrations whose file was renamed after databases had run them (two shared one timestamp): the row a
 * database keeps under the old name is renamed before `up`, so the migration does not run again.
 */
export const RENAMED_MIGRATIONS: Readonly<Record<string, string>> = {
  '20261123120000-inventory-records-recalculation': '20261123120100-inventory-records-recalculation',
};

/** Any fixed number: serialises migrations of processes that start together (api and worker). */
const MIGRATION_LOCK = 7_300_001;

export function createMigrator(sequelize: Sequelize, logger?: Pick<Console, 'info'>) {
  const log = logger && ((message: Record<string, unknown>) => logger.info(message));
  return new Umzug<MigrationContext>({
    migrations: {
      glob: ['migrations/*.{ts,js}', { cwd: __dirname, ignore: ['**/*.d.ts'] }],
    },
    context: { sequelize },
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: log && { info: log, warn: log, error: log, debug: () => undefined },
  });
}

/** Brings the schema up to date; safe to call from several processes at once. */
export async function migrateUp(sequelize: Sequelize, databaseUrl: string): Promise<string[]> {
  // A session lock must live on one connection, so it is held by a client of its own, not the pool.
  const lock = new Client({ connectionString: databaseUrl });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await renameMigrations(lock);
    const applied = await createMigrator(sequelize).up();
    return applied.map((m) => path.basename(m.name));
  } finally {
    await lock.end();
  }
}

/** Renames the rows of RENAMED_MIGRATIONS (as .ts from the sources or .js from dist/) where a database has them. */
async function renameMigrations(client: Client): Promise<void> {
  const { rows } = await client.query<{ exists: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS exists",
  );
  if (!rows[0]?.exists) return;
  for (const [from, to] of Object.entries(RENAMED_MIGRATIONS)) {
    for (const ext of ['.ts', '.js']) {
      await client.query('UPDATE schema_migrations SET name = $2 WHERE name = $1', [from + ext, to + ext]);
    }
  }
}
