import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createLogger } from '../../platform/logger';
import { freePort } from '../../platform/net';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../supervisor/postgres';

/**
 * The embedded PostgreSQL's port, when none is asked for, is found free and bound by the server a moment
 * later: another process starting beside it (another `npm start`, a test's stack) may take it meanwhile.
 */
describe('the embedded PostgreSQL on a free port', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-postgres-'));
  const holder = net.createServer();
  let server: EmbeddedPostgres | undefined;
  afterAll(async () => {
    await server?.stop();
    holder.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds another when the one it found is taken before the server binds it', async () => {
    fs.chmodSync(dir, 0o755); // so the postgres user reaches dir/pg itself
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as net.AddressInfo).port;
    const found = [taken];
    server = await startEmbeddedPostgres({
      dataDir: path.join(dir, 'pg'),
      logger: createLogger('error', 'test'),
      durable: false,
      anyFreePort: async () => found.shift() ?? freePort(),
    });
    expect(found).toEqual([]);
    expect(server.port).not.toBe(taken);
    const client = new Client({ connectionString: server.url });
    await client.connect();
    try {
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  }, 60_000);
});
