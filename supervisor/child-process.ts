import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';

/**
 * Whether a process of this pid runs (signal 0 checks without sending anything). A zombie does not: it
 * has exited and waits for a parent to reap it, which an init that does not reap (in some containers) never does.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // The state follows the command, which is in parentheses and may itself hold spaces and parentheses.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    // Gone since the signal, unless there is no /proc to ask: then the signal's answer is all there is.
    return !fs.existsSync('/proc/self');
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
  const inTime = await Promise.race([
    exited.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
  ]);
  clearTimeout(timer);
  if (inTime) return true;
  child.kill('SIGKILL');
  await exited;
  return false;
}

/** Whether util-linux's setpriv can give a child a parent-death signal here (Linux); asked once. */
let pdeathsigAvailable: boolean | undefined;
function canSetPdeathsig(): boolean {
  pdeathsigAvailable ??= spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' }).status === 0;
  return pdeathsigAvailable;
}

/**
 * spawn(), with the child bound to this process: when this process dies, even by SIGKILL, the kernel
 * sends the child `onParentDeath` (Linux's parent-death signal, set by setpriv, which then execs the
 * command: the child keeps its pid). Where setpriv is missing the child is spawned as is.
 */
export function spawnBound(
  command: string,
  args: readonly string[],
  options: SpawnOptions,
  onParentDeath: NodeJS.Signals,
): ChildProcess {
  if (!canSetPdeathsig()) return spawn(command, args, options);
  return spawn('setpriv', ['--pdeathsig', onParentDeath.replace(/^SIG/, ''), '--', command, ...args], options);
}
