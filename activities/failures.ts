import type { BatchError } from '../domain/batch-errors';
import { batchRejection } from '../pipeline/batch-failure';

/**
 * A batch that a retry cannot fix, refused (pipeline/batch-failure.ts encodes it). The whole list is
 * on the batch row: persistEvents wrote it with the refusal.
 */
export function rejectBatch(errors: BatchError[]): never {
  throw batchRejection(errors);
}
