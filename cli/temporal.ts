import { spawn } from 'node:child_process';
import os from 'node:os';
import { loadConfig } from '../platform/config';
import { createLogger } from '../platform/logger';
import { readLiveState } from '../supervisor/state';
import { ensureTemporalCli, TemporalCliInstallError } from '../supervisor/temporal-cli';
import { noService } from './database';

/**
 * `npm run temporal -- <arguments>`: the Temporal CLI `npm start` runs (TEMPORAL_CLI_PATH's, `temporal` on
 * PATH, else the pinned one it installs into .tools/temporal, installed here too on first use), pointed
 * at the running service: TEMPORAL_ADDRESS when set, else the address the `npm start` on DATA_DIR
 * published in its runtime.json, which may not be the CLI's default port. An `--address` given wins.
 * Its output, exit code and signals are the CLI's own.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const config = loadConfig();
  let cli: string;
  try {
    cli = await ensureTemporalCli(
      config.temporalCliPath,
      createLogger(process.env.LOG_LEVEL || 'info', 'temporal-cli', { stderr: true }),
    );
  } catch (error) {
    console.error(error instanceof TemporalCliInstallError ? error.message : String(error));
    process.exit(1);
  }
  const address = config.temporalAddress ?? readLiveState(config.dataDir)?.temporalAddress;
  // The CLI reads TEMPORAL_ADDRESS itself, below an --address of the arguments; commands that need no
  // server (help, version) ignore it.
  const env = { ...process.env, ...(address ? { TEMPORAL_ADDRESS: address } : {}) };
  const child = spawn(cli, args, { stdio: 'inherit', env });
  // Ctrl-C reaches the CLI too (one process group): it decides, this process waits for it.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => (signal === 'SIGINT' ? undefined : child.kill(signal)));
  child.once('error', (error) => {
    console.error(`${cli} could not be run: ${error.message}`);
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    const given = args.some((arg) => arg === '--address' || arg.startsWith('--address='));
    if (code !== 0 && !address && !given) console.error(noService(config.dataDir, 'TEMPORAL_ADDRESS').message);
    process.exit(signal ? 128 + os.constants.signals[signal] : (code ?? 1));
  });
}

void main();
