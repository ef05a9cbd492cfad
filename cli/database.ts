import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { migrateUp } from '../db/migrate';
import { createSequelize } from '../db/sequelize';
import { loadConfig } from '../runtime/config';
import { createLogger } from '../runtime/logger';
import { runningPostgresPort, localUrl, startEmbeddedPostgres } from '../runtime/postgres';
import { readLiveState } from '../runtime/state';

/**
 * Runs `task` against the service's database: DATABASE_URL when set, else the one a running `npm start`
 * uses, else the embedded cluster under .data/pg, started for the duration of the command.
 */
export async function withDatabase<T>(task: (sequelize: Sequelize) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const pgDir = path.join(config.dataDir, 'pg');
  let url = config.databaseUrl ?? readLiveState(config.dataDir)?.databaseUrl;
  const runningPort = url ? undefined : runningPostgresPort(pgDir);
  if (runningPort) url = localUrl(runningPort);
  const embedded = url
    ? undefined
    : await startEmbeddedPostgres({ dataDir: pgDir, logger: createLogger(process.env.LOG_LEVEL || 'warn', 'cli') });
  const databaseUrl = url ?? embedded!.url;
  const sequelize = createSequelize(databaseUrl, 2);
  try {
    await migrateUp(sequelize, databaseUrl);
    return await task(sequelize);
  } finally {
    await sequelize.close();
    await embedded?.stop();
  }
}

/** Runs a CLI's main, printing a failure as one line on stderr with exit code 1. */
export function run(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
