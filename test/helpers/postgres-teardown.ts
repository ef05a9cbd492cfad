import fs from 'node:fs';

export default async function postgresTeardown(): Promise<void> {
  const postgres = globalThis.__POSTGRES__;
  if (!postgres) return;
  await postgres.server.stop();
  if (!process.env.KEEP_TEST_STACK) fs.rmSync(postgres.dir, { recursive: true, force: true });
}
