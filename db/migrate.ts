import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import type { Sequelize } from 'sequelize';
import type { Umzug } from 'umzug';

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

/** PostgreSQL 16: queries read stored times with pg_input_is_valid, which 16 brought. */
const OLDEST_SERVER = 160000;

/** Any fixed number: serialises migrations of processes that start together (api and worker). */
const MIGRATION_LOCK = 7_300_001;

const MIGRATIONS_DIR = path.join(__dirname, 'migrations');
const isMigrationFile = (name: string): boolean => /\.(ts|js)$/.test(name) && !name.endsWith('.d.ts');

export async function createMigrator(
  sequelize: Sequelize,
  logger?: Pick<Console, 'info'>,
): Promise<Umzug<MigrationContext>> {
  // Loaded only when a migration is due (see migrateUp): umzug and what it imports for its command line are
  // about 0.25 s of CPU at every start of the API and of each worker.
  const { SequelizeStorage, Umzug } = await import('umzug');
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
    const { rows: server } = await lock.query<{ number: number; version: string }>(
      "SELECT current_setting('server_version_num')::int AS number, current_setting('server_version') AS version",
    );
    if (server[0].number < OLDEST_SERVER)
      throw new Error(`PostgreSQL ${server[0].version} is too old for this service: it needs PostgreSQL 16 or later.`);
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    // A new database has no table yet: every migration is due.
    const { rows } = await lock.query<{ exists: boolean }>(
      "SELECT to_regclass('schema_migrations') IS NOT NULL AS exists",
    );
    if (rows[0]?.exists) {
      await renameMigrations(lock);
      if (!(await anyMigrationDue(lock))) return [];
    }
    const applied = await (await createMigrator(sequelize)).up();
    return applied.map((m) => path.basename(m.name));
  } finally {
    await lock.end();
  }
}

/** Whether a file in migrations/ (createMigrator's glob) has no row in schema_migrations. */
async function anyMigrationDue(client: Client): Promise<boolean> {
  const { rows } = await client.query<{ name: string }>('SELECT name FROM schema_migrations');
  const applied = new Set(rows.map((row) => row.name));
  return fs.readdirSync(MIGRATIONS_DIR).some((name) => isMigrationFile(name) && !applied.has(name));
}

/** Renames the rows of RENAMED_MIGRATIONS (as .ts from the sources or .js from dist/) where a database has them. */
async function renameMigrations(client: Client): Promise<void> {
  for (const [from, to] of Object.entries(RENAMED_MIGRATIONS)) {
    for (const ext of ['.ts', '.js']) {
      await client.query('UPDATE schema_migrations SET name = $2 WHERE name = $1', [from + ext, to + ext]);
    }
  }
}
