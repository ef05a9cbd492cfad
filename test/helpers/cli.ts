import { spawnSync } from 'node:child_process';
import type { CommandLine } from '../../cli/database';
import { PROJECT_ROOT } from '../../platform/config';
import { models } from './db';
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

/**
 * Runs a CLI's command in this process, on the tests' database, as its script would: what it printed.
 * A refusal rejects with the Error whose message the script prints on stderr. Each CLI's script is run as a
 * process too (test/runtime/cli.test.ts), so its wiring is covered once, not by every command.
 */
export async function command(cli: CommandLine, ...args: string[]): Promise<string> {
  let printed = '';
  await cli(args, { sequelize: models(), print: (line) => (printed += `${line}\n`) });
  return printed;
}
