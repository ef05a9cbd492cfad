import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Sequelize } from 'sequelize';
import { migrateUp } from '../db/migrate';
import { createSequelize } from '../db/sequelize';
import { loadConfig } from '../platform/config';
import { readLiveState } from '../supervisor/state';

const VARIABLES = { databaseUrl: 'DATABASE_URL', temporalAddress: 'TEMPORAL_ADDRESS' } as const;

/**
 * The service's database or Temporal: DATABASE_URL or TEMPORAL_ADDRESS when set, else what the `npm start`
 * running on DATA_DIR published in its runtime.json. Never a server of its own: a database would be a
 * second, empty one.
 */
export function serviceAddress(key: keyof typeof VARIABLES): string {
  const config = loadConfig();
  const address = config[key] ?? readLiveState(config.dataDir)?.[key];
  if (!address) throw noService(config.dataDir, VARIABLES[key]);
  return address;
}

export const noService = (dataDir: string, variable: string): Error =>
  new Error(
    `No running service found under ${dataDir} (start it with \`npm start\`, or set DATA_DIR to its data directory, or ${variable}).`,
  );

/** Runs `task` against the service's database (serviceAddress), schema brought up to date first. */
export async function withDatabase<T>(task: (sequelize: Sequelize) => Promise<T>): Promise<T> {
  const databaseUrl = serviceAddress('databaseUrl');
  const sequelize = createSequelize(databaseUrl, 2);
  try {
    await migrateUp(sequelize, databaseUrl);
    return await task(sequelize);
  } finally {
    await sequelize.close();
  }
}

/** Runs a CLI's main, printing a failure as one line on stderr with exit code 1. */
export function run(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}

/** An option's whole number from `min` to 1,000,000, or an error naming the option and showing `usage`. */
export function wholeNumber(name: string, value: string | undefined, min: number, usage: string): number {
  const parsed = Number(value);
  if (value === undefined || !Number.isInteger(parsed) || parsed < min || parsed > 1_000_000) {
    throw new Error(
      `${name} must be a whole number from ${min} to 1000000${value === undefined ? '' : ` (got "${value}")`}.\n${usage}`,
    );
  }
  return parsed;
}

type Options = NonNullable<ParseArgsConfig['options']>;
type ValuesOf<O extends Options> = ReturnType<typeof parseArgs<{ allowPositionals: true; options: O }>>['values'];

/** Where a command runs: a database, and where its output lines go. */
export interface CommandContext {
  sequelize: Sequelize;
  print: (line: string) => void;
}

/** A CLI of subcommands, given its arguments (after the script's name); it fails with the Error to print. */
export type CommandLine = (argv: readonly string[], context?: CommandContext) => Promise<void>;

/**
 * A CLI of subcommands taking `options` and --help: --help or no command prints `usage`; a command runs
 * with the arguments after it, against the service's database (withDatabase) unless a context is given
 * (the tests' own); an unknown one fails with `usage`. Its script runs it with `run`.
 */
export function commandLine<const O extends Options>(
  usage: string,
  options: O,
  commands: Record<string, (input: CommandContext & { args: string[]; values: ValuesOf<O> }) => Promise<void>>,
): CommandLine {
  return async (argv, context) => {
    const {
      positionals: [command, ...args],
      values,
    } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
    });
    const print = context?.print ?? ((line: string) => process.stdout.write(`${line}\n`));
    if (('help' in values && values.help === true) || !command) return print(usage);
    if (!Object.hasOwn(commands, command)) throw new Error(`Unknown command ${command}.\n${usage}`);
    const input = { args, values: values as ValuesOf<O>, print };
    if (context) return commands[command]({ ...input, sequelize: context.sequelize });
    await withDatabase((sequelize) => commands[command]({ ...input, sequelize }));
  };
}
