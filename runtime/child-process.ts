import type { ChildProcess } from 'node:child_process';

/** Whether a process of this pid exists (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const hasExited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

/** Resolves when the child has exited (at once if it already has). */
export function exitOf(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Asks a child to stop with `signal` and SIGKILLs it if it is still alive after `graceMs`: a stop must
 * never hang on a child that ignores or cannot finish its shutdown (an open request, a stuck server).
 * Resolves true when the child stopped by itself.
 */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<boolean> {
  if (hasExited(child)) return true;
  const exited = exitOf(child);
  child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)))]);
  clearTimeout(timer);
  if (inTime) return true;
  child.kill('SIGKILL');
  await exited;
  return false;
}
