import pino, { type Logger } from 'pino';

export type { Logger };

/** A person watches stdout (a terminal) and did not ask for JSON lines (LOG_FORMAT=json). */
export const personWatching = (): boolean => Boolean(process.stdout.isTTY) && process.env.LOG_FORMAT !== 'json';

/**
 * JSON lines for machines; pino-pretty when a person watches a terminal. `stderr`: for a command whose
 * stdout is its answer (`npm run temporal -- …` piped into jq).
 */
export function createLogger(level: string, name: string, { stderr = false }: { stderr?: boolean } = {}): Logger {
  const pretty = Boolean((stderr ? process.stderr : process.stdout).isTTY) && process.env.LOG_FORMAT !== 'json';
  if (!pretty) return stderr ? pino({ name, level }, pino.destination(2)) : pino({ name, level });
  const options = { colorize: true, ignore: 'pid,hostname', ...(stderr ? { destination: 2 } : {}) };
  return pino({ name, level, transport: { target: 'pino-pretty', options } });
}
