import path from 'node:path';
import { Piscina } from 'piscina';
import type { XsdIssue, XsdTask } from './sets';

/**
 * GS1's XSDs, compiled once in a thread of their own (piscina: a well-kept worker-thread pool), check each
 * XML document off the event loop. One thread, so once per process: starting one (libxml2's WebAssembly,
 * then the XSDs) takes about 680 ms of CPU, checking a 500-event document against them about 10, so a
 * second thread cost more than it gave (an XML capture's CPU per document, bench:epcis). The thread
 * starts with the first XML document and stays while documents come.
 */
let pool: Piscina<XsdTask, XsdIssue[]> | undefined;

export function xsdFaults(task: XsdTask): Promise<XsdIssue[]> {
  pool ??= new Piscina<XsdTask, XsdIssue[]>({
    // Under tsx (npm run api) the TypeScript source, once built the compiled file: the same name beside this one.
    filename: path.join(__dirname, `worker${path.extname(__filename)}`),
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: 10 * 60_000,
  });
  return pool.run(task);
}
