import { spawn, type ChildProcess } from 'node:child_process';
import { PROJECT_ROOT } from '../../platform/config';
import { waitFor } from '../../platform/net';

/** A second `npm run api` on the test stack's PostgreSQL and Temporal: another replica, as in production. */
export interface Replica {
  url: string;
  /** The API's own process (not npm's): its log lines carry it. */
  pid: number;
  child: ChildProcess;
  exited: Promise<void>;
}

export async function startReplica(env: NodeJS.ProcessEnv): Promise<Replica> {
  const child = spawn('npm', ['run', '--silent', 'api'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: '0', LOG_FORMAT: 'json', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: npm, tsx and node all get the signal that stops it
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let listening: RegExpExecArray | null = null;
  await waitFor('the second API process to listen', 90_000, async () => {
    if (child.exitCode !== null) throw new Error(`npm run api exited with ${child.exitCode}:\n${output.slice(-3000)}`);
    listening = /"pid":(\d+)[^\n]*"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
    return listening !== null;
  });
  const [, pid, url] = listening!;
  return { url, pid: Number(pid), child, exited };
}

export async function stopReplica(replica: Replica | undefined): Promise<void> {
  if (!replica?.child.pid) return;
  try {
    process.kill(-replica.child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  await replica.exited;
}
