import type { BatchRef } from '../workflows/contracts';
import type { ActivityDeps } from './deps';

/** Step 4: the batch's commission events onto the account's ledger (idempotent per event). */
export function commitLedger(deps: ActivityDeps) {
  return async (input: BatchRef): Promise<{ appended: number }> => deps.ledger.appendBatch(input.accountId, input.batchId);
}
