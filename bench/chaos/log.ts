/** Progress lines on stderr: stdout carries only the report. Silent under jest unless CHAOS_VERBOSE is set. */
export function log(message: string): void {
  if (process.env.JEST_WORKER_ID !== undefined && !process.env.CHAOS_VERBOSE) return;
  process.stderr.write(`[chaos ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}
