import { withPrior } from '../../domain/event-batch';
import { failedBatchErrors, recordBatchRefusal } from '../../db/repositories/batch-pipeline';
import type { LazySavepoint } from '../../db/sql';
import type { BatchError } from '../../domain/batch-errors';
import type { PersistOutcome, PersistStep } from './step';

/**
 * Refuses the batch with every error the checks found: what they wrote (master data created on the way)
 * is undone back to `savepoint`, and the batch is marked Failed with the whole list in the same
 * transaction. The problems the API found translating the request come first in their own words; the
 * pipeline's errors about the same parts are left out.
 */
export async function refuseBatch(
  step: PersistStep,
  savepoint: LazySavepoint,
  prior: readonly BatchError[],
  errors: readonly BatchError[],
): Promise<PersistOutcome> {
  await savepoint.rollback();
  const rejected = withPrior(prior, errors);
  await recordBatchRefusal(step.query, step.batchId, rejected);
  return { rejected, recorded: 'now' };
}

/** The error list an earlier attempt of this step refused the batch with (and committed), if it did. */
export async function earlierRefusal(step: PersistStep): Promise<BatchError[] | null> {
  const errors = await failedBatchErrors(step.query, step.batchId);
  return errors?.length && !errors.some((e) => e.code === 'InternalError') ? errors : null;
}
