import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON lines for machines; pino-pretty when a person watches a terminal. */
export function createLogger(level: string, name: string): Logger {
  const pretty = process.stdout.isTTY && process.env.LOG_FORMAT !== 'json';
  return pino({
    name,
    level,
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } } : {}),
  });
}
