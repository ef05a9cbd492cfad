import { ApplicationFailure } from '@temporalio/common';
import type { BatchError } from '../../domain/batch-errors';
import { batchFailed, batchFailureOf, batchRejection } from '../../pipeline/batch-failure';

const error = (index: number): BatchError => ({
  index,
  eventId: `EV-${index}`,
  code: 'InsufficientInventory',
  field: 'ProductInstances[0].Quantity',
  message: `short ${index}`,
});
const failureWith = (details: unknown[]) =>
  ApplicationFailure.create({ message: 'm', type: 'InsufficientInventory', nonRetryable: true, details });

describe('the batch failure encoding', () => {
  it('carries the error count and the first error, never the list', () => {
    const rejection = batchRejection([error(0), error(1), error(2)]);
    expect(rejection).toMatchObject({
      type: 'InsufficientInventory',
      nonRetryable: true,
      message: 'short 0 (and 2 more errors)',
    });
    expect(rejection.details).toEqual([{ errorCount: 3, firstError: error(0) }]);
    expect(batchFailureOf(rejection)).toEqual({ errorCount: 3, firstError: error(0) });
    // Whatever else the caller's object holds stays out of history.
    const failed = batchFailed(
      { errorCount: 1, firstError: error(0), extra: 'x' } as Parameters<typeof batchFailed>[0],
      'InsufficientInventory',
      'msg',
    );
    expect(failed.details).toEqual([{ errorCount: 1, firstError: error(0) }]);
  });

  it('reads the shapes older histories hold: the whole list, and the first error alone', () => {
    expect(batchFailureOf(failureWith([[error(0), error(1)]]))).toEqual({ errorCount: 2, firstError: error(0) });
    expect(batchFailureOf(failureWith([[error(0)]]))).toEqual({ errorCount: 1, firstError: error(0) });
  });

  it('is no batch failure for anything else', () => {
    expect(batchFailureOf(new Error('boom'))).toBeUndefined();
    expect(batchFailureOf(failureWith([]))).toBeUndefined();
    expect(batchFailureOf(failureWith([[]]))).toBeUndefined();
    expect(batchFailureOf(failureWith(['text']))).toBeUndefined();
  });
});
