import { lockBatchTimelines, recalculateTimelines } from '../db/repositories/inventory-timelines';
import { queryOf } from '../db/sql';
import type { BatchRef } from '../pipeline/contracts';
import type { ActivityDeps } from './deps';

/**
 * Step 3: recomputes every timeline the batch touched, from the stored deltas, so the result is the same
 * however often it runs. It takes the same per-timeline locks as persistEvents: a recalculation never
 * works from a snapshot that misses a batch committed on the same lot meanwhile.
 */
export function recalculateTimeline(deps: ActivityDeps) {
  const { sequelize } = deps;
  return async (input: BatchRef): Promise<{ timelines: number; updated: number }> =>
    sequelize.transaction(async (transaction) => {
      // The batch id alone selects the rows (a batch has one account); every later statement filters by account.
      const query = queryOf(sequelize, transaction);
      const timelines = await lockBatchTimelines(query, input.accountId, input.batchId);
      if (!timelines.length) return { timelines: 0, updated: 0 };
      const updated = await recalculateTimelines(sequelize, transaction, input.accountId, timelines);
      return { timelines: timelines.length, updated };
    });
}
