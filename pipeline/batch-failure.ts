/**
 * The one encoding of a failed batch in Temporal: how the persist activity refuses a batch, how the
 * workflow fails with it, and how both are read back. History carries how many errors there were and
 * the first of them, never the whole list: the batch row holds that (a batch of 1,000 events with an
 * error each would otherwise put them all into the history, twice).
 */
import { ApplicationFailure } from '@temporalio/common';
import type { BatchError } from '../domain/batch-errors';

/** A failed batch as its failure carries it. */
export interface BatchFailure {
  /** How many errors the batch row lists. */
  errorCount: number;
  firstError: BatchError;
}

const andMore = ({ errorCount, firstError }: BatchFailure): string =>
  errorCount > 1 ? `${firstError.message} (and ${errorCount - 1} more errors)` : firstError.message;

// Only these two fields, whatever else the caller's object holds: they are what history keeps.
const detailsOf = ({ errorCount, firstError }: BatchFailure): BatchFailure => ({ errorCount, firstError });

/**
 * The persist activity's refusal of a batch a retry cannot fix: non-retryable, named after the first
 * error's code (InsufficientInventory, UnknownProduct, ...), the message counting the rest.
 */
export function batchRejection(errors: readonly BatchError[]): ApplicationFailure {
  const failure = { errorCount: errors.length, firstError: errors[0] };
  return ApplicationFailure.create({
    message: andMore(failure),
    type: failure.firstError.code,
    nonRetryable: true,
    details: [detailsOf(failure)],
  });
}

/** The workflow's own failure once the batch is recorded Failed: `message` is what the Temporal UI shows. */
export function batchFailed(failure: BatchFailure, type: string, message: string): ApplicationFailure {
  return ApplicationFailure.create({ message, type, nonRetryable: true, details: [detailsOf(failure)] });
}

const isBatchError = (value: unknown): value is BatchError =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as BatchError).code === 'string' &&
  typeof (value as BatchError).message === 'string';

/**
 * The failed batch a failure carries (the activity's refusal, or the workflow's failure), or undefined
 * for any other failure. Reads every shape recorded histories hold: `{ errorCount, firstError }` (now),
 * `[firstError]` (activities that already kept the list out) and the whole list (the first versions).
 */
export function batchFailureOf(failure: unknown): BatchFailure | undefined {
  if (!(failure instanceof ApplicationFailure)) return undefined;
  const details: unknown = failure.details?.[0];
  if (Array.isArray(details)) {
    const [firstError] = details;
    return isBatchError(firstError) ? { errorCount: details.length, firstError } : undefined;
  }
  if (typeof details !== 'object' || details === null) return undefined;
  const { errorCount, firstError } = details as Partial<BatchFailure>;
  return typeof errorCount === 'number' && isBatchError(firstError) ? { errorCount, firstError } : undefined;
}
