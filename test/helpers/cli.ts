import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../platform/config';

const tsx = path.join(PROJECT_ROOT, 'node_modules/.bin/tsx');

/** Runs one of the project's scripts (`cli/apikey.ts`, `supervisor/start.ts`) as a real process. */
export function cli(script: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(tsx, [path.join(PROJECT_ROOT, script), ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The environment of a CLI that must find the service under `dataDir` by itself (runtime.json). */
export function pointedAt(dataDir: string): NodeJS.ProcessEnv {
  return { DATA_DIR: dataDir, DATABASE_URL: '', TEMPORAL_ADDRESS: '' };
}
