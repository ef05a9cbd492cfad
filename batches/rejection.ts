/**
 * The rejection format: how a refused batch's errors are told, in an answer's body (POST
 * /Integration/Events and /JSON, DESIGN.md: a rejected batch stores nothing and lists every failure) and
 * at a shell (`npm run batch -- retry`).
 */
import type { BatchError } from '../domain/batch-errors';

export const rejectedBody = (errors: BatchError[]) => ({
  message: `The batch was rejected: ${errors.length} error${errors.length === 1 ? '' : 's'}; nothing was stored.`,
  result: [],
  errors,
});

/** One line per error, for a terminal. */
export const rejectionLines = (errors: readonly BatchError[]): string[] =>
  errors.map((e) => `  event ${e.index ?? '-'} ${e.eventId ?? ''}: ${e.code} ${e.field ?? ''}: ${e.message}`);
