import pino, { type Logger } from 'pino';

export type { Logger };

/** A person watches stdout (a terminal) and did not ask for JSON lines (LOG_FORMAT=json). */
export const personWatching = (): boolean => Boolean(process.stdout.isTTY) && process.env.LOG_FORMAT !== 'json';

/** JSON lines for machines; pino-pretty when a person watches a terminal. */
export function createLogger(level: string, name: string): Logger {
  const pretty = personWatching();
  return pino({
    name,
    level,
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } } : {}),
  });
}
