import pino, { type Logger } from 'pino';

export type { Logger };

/** A person watches stdout (a terminal) and did not ask for JSON lines (LOG_FORMAT=json). */
export const personWatching = (): boolean => Boolean(process.stdout.isTTY) && process.env.LOG_FORMAT !== 'json';

/**
 * JSON lines for machines; pino-pretty when a person watches a terminal. `stderr`: for a command whose
 * stdout is its answer (`npm run temporal -- …` piped into jq).
 */
export function createLogger(level: string, name: string, { stderr = false }: { stderr?: boolean } = {}): Logger {
  if (stderr) {
    const pretty = Boolean(process.stderr.isTTY) && process.env.LOG_FORMAT !== 'json';
    return pretty
      ? pino({
          name,
          level,
          transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname', destination: 2 } },
        })
      : pino({ name, level }, pino.destination(2));
  }
  const pretty = personWatching();
  return pino({
    name,
    level,
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } } : {}),
  });
}
