import path from 'node:path';
import { Piscina } from 'piscina';
import type { XsdIssue, XsdTask } from './sets';

/**
 * GS1's XSDs, compiled once in each thread of a small pool (piscina: a well-kept worker-thread pool),
 * check each XML document off the event loop: compiling them takes a few hundred milliseconds, checking a
 * document against them a few. Threads start with the first XML document and stay while documents come.
 */
let pool: Piscina<XsdTask, XsdIssue[]> | undefined;

export function xsdFaults(task: XsdTask): Promise<XsdIssue[]> {
  pool ??= new Piscina<XsdTask, XsdIssue[]>({
    // Under tsx (npm run api) the TypeScript source, once built the compiled file: the same name beside this one.
    filename: path.join(__dirname, `worker${path.extname(__filename)}`),
    minThreads: 1,
    maxThreads: 2,
    idleTimeout: 10 * 60_000,
  });
  return pool.run(task);
}
