import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateUp } from '../../db/migrate';
import { createSequelize } from '../../db/sequelize';
import { createLogger } from '../../platform/logger';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../supervisor/postgres';

declare global {
  // eslint-disable-next-line no-var
  var __POSTGRES__: { server: EmbeddedPostgres; dir: string } | undefined;
}

/**
 * The activities' layer: a real PostgreSQL with every migration, and nothing else (no Temporal, no
 * worker, no API). Test files reach it through DATABASE_URL, as the stack's do: the setup leaves it in
 * LAYER_DATABASE_URL (the stack's setup, run in the same process, sets DATABASE_URL) and
 * test/helpers/layer-database.ts puts it in place in each of the layer's test files.
 */
export default async function postgresSetup(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'traceability-pg-'));
  fs.chmodSync(dir, 0o755); // so the postgres user reaches dir/pg itself
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'warn', 'test-setup');
  const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), logger, durable: false });
  globalThis.__POSTGRES__ = { server, dir };
  const sequelize = createSequelize(server.url, 2);
  try {
    await migrateUp(sequelize, server.url);
  } finally {
    await sequelize.close();
  }
  process.env.LAYER_DATABASE_URL = server.url;
}
