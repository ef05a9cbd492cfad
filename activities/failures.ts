import { ApplicationFailure } from '@temporalio/activity';
import type { BatchError } from '../workflows/contracts';

/**
 * A batch that a retry cannot fix: a non-retryable ApplicationFailure named after the first error's
 * code (InsufficientInventory, UnknownProduct, ...) with the whole error list as its details.
 */
export function rejectBatch(errors: BatchError[]): never {
  const first = errors[0];
  const message = errors.length === 1 ? first.message : `${first.message} (and ${errors.length - 1} more errors)`;
  throw ApplicationFailure.create({ message, type: first.code, nonRetryable: true, details: [errors] });
}
