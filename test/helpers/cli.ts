import { spawnSync } from 'node:child_process';
import { PROJECT_ROOT } from '../../platform/config';
import { typescriptCommand } from './stack';

/** Runs one of the project's scripts (`cli/apikey.ts`, `supervisor/start.ts`) as a real process, as its npm script does. */
export function cli(script: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const [command, scriptArgs] = typescriptCommand(script);
  const result = spawnSync(command, [...scriptArgs, ...args], {
    cwd: PROJECT_ROOT,
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
