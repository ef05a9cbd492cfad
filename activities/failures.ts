import { ApplicationFailure } from '@temporalio/activity';
import type { BatchError } from '../workflows/contracts';

/**
 * A batch that a retry cannot fix: a non-retryable ApplicationFailure named after the first error's
 * code (InsufficientInventory, UnknownProduct, ...). The whole list is on the batch row (persistEvents
 * wrote it with the refusal); the failure's details carry only the first error, so a batch with
 * thousands of errors does not put them into the workflow history.
 */
export function rejectBatch(errors: BatchError[]): never {
  const first = errors[0];
  const message = errors.length === 1 ? first.message : `${first.message} (and ${errors.length - 1} more errors)`;
  throw ApplicationFailure.create({ message, type: first.code, nonRetryable: true, details: [[first]] });
}
