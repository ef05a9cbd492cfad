import type { BatchRef } from '../pipeline/contracts';
import type { ActivityDeps } from './deps';
import { activityLogger } from './logger';

/** Step 4: the batch's commission events onto the account's ledger (idempotent per event). */
export function commitLedger(deps: ActivityDeps) {
  return async (input: BatchRef): Promise<{ appended: number }> => {
    const result = await deps.ledger.appendBatch(input.accountId, input.batchId);
    activityLogger(deps.logger, { batchId: input.batchId, account: input.accountName }).info(result, 'ledger appended');
    return result;
  };
}
