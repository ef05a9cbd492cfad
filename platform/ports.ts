import fs from 'node:fs';
import net from 'node:net';
import { freePort } from './net';
import type { Logger } from './logger';

/** A port the start needs is taken; the message names the variable, the port and who holds it. */
export class PortTakenError extends Error {
  constructor(variable: string, port: number) {
    super(
      `${variable}=${port}: port ${port} is already in use by ${describeHolder(port)}. ` +
        `Stop that process, or set ${variable} to another port (0 picks a free one).`,
    );
    this.name = 'PortTakenError';
  }
}

/** Whether nothing listens on `port` on any local address (0.0.0.0 clashes with 127.0.0.1 and [::]). */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** What `read` answers, or undefined when it throws (no /proc, or an entry gone or not ours to read). */
function readable<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** Inodes of the sockets listening on `port` (/proc/net/tcp and tcp6: state 0A is LISTEN). */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (readable(() => fs.readFileSync(table, 'utf8')) ?? '').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== '0A') continue;
      if (parseInt(fields[1].split(':')[1], 16) === port) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/**
 * The pids of the processes listening on `port`, as far as /proc shows them: undefined when it cannot
 * tell (no /proc, or the listener belongs to a user whose file descriptors we may not read).
 */
export function listenerPids(port: number): number[] | undefined {
  const inodes = listeningInodes(port);
  if (!inodes.size) return undefined;
  const holds = (pid: string) =>
    (readable(() => fs.readdirSync(`/proc/${pid}/fd`)) ?? []).some((fd) => {
      const inode = /^socket:\[(\d+)\]$/.exec(readable(() => fs.readlinkSync(`/proc/${pid}/fd/${fd}`)) ?? '')?.[1];
      return inode !== undefined && inodes.has(inode);
    });
  const pids = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && holds(entry));
  return pids.length ? pids.map(Number) : undefined;
}

function commandLine(pid: number): string {
  const command = readable(() => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' '));
  if (command === undefined) return '?';
  return command.length > 120 ? `${command.slice(0, 117)}...` : command;
}

/** "pid 1234 (postgres -D ...)", or a plain "another process" when /proc does not say. */
export function describeHolder(port: number): string {
  const pids = listenerPids(port);
  if (!pids) return 'another process (not one this user can see; `ss -ltnp` as root names it)';
  return pids.map((pid) => `pid ${pid} (${commandLine(pid)})`).join(', ');
}

/** The port set in `variable` (0 for "any"), once it is known to be free; undefined when unset. */
export async function checkExplicitPort(variable: string, env: NodeJS.ProcessEnv): Promise<number | undefined> {
  const raw = env[variable];
  if (raw === undefined || raw === '') return undefined;
  const port = Number(raw);
  if (port !== 0 && !(await isPortFree(port))) throw new PortTakenError(variable, port);
  return port;
}

/**
 * The port for a server `npm start` runs. Set in `variable` (not 0): that port, and a start that stops
 * at once, naming who holds it, when it is taken. "0": any free port. Unset: the conventional port when
 * free, else any free one (said in the log), so a second instance on the same machine just works.
 */
export async function choosePort(options: {
  variable: string;
  env: NodeJS.ProcessEnv;
  conventional: number;
  logger: Logger;
  /** Any free port: one found free now, or (0) the one the process that binds it is given. */
  anyFree?: () => Promise<number>;
}): Promise<number> {
  const { variable, env, conventional, logger, anyFree = freePort } = options;
  const explicit = await checkExplicitPort(variable, env);
  if (explicit !== undefined) return explicit || anyFree();
  if (await isPortFree(conventional)) return conventional;
  const port = await anyFree();
  logger.warn(
    { variable, conventional, port },
    `port ${conventional} (${variable}'s default) is in use by ${describeHolder(conventional)}; using ${port || 'a free one'} instead (set ${variable} to choose)`,
  );
  return port;
}
