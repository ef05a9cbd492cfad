import { execute, lockKeys, queryOf, timelineKey } from '../db/sql';
import type { BatchRef } from '../workflows/contracts';
import type { ActivityDeps } from './deps';

/**
 * balance = running sum of delta by (event_time, event_seq); available = running minimum of balance
 * from the end (domain/inventory-timeline computeTimeline). NUMERIC keeps both exact. Each timeline is
 * read on its own through the timeline index (LATERAL, with OFFSET 0 so the planner cannot turn it
 * into one hash join over all of the account's records): the cost is that of the touched lots only.
 * Changed rows are written back by ctid, which is stable here: the lots' locks keep other writers out.
 */
export const RECALCULATE = `
  WITH computed AS (
    SELECT c.row_id, c.balance, c.available, c.old_balance, c.old_available
      FROM unnest($2::uuid[], $3::text[], $4::uuid[]) AS k(product_id, lot_serial, location_id)
     CROSS JOIN LATERAL (
       SELECT b.row_id, b.balance, b.old_balance, b.old_available,
              min(b.balance) OVER (ORDER BY b.event_time DESC, b.event_seq DESC ROWS UNBOUNDED PRECEDING) AS available
         FROM (SELECT r.ctid AS row_id, r.event_time, r.event_seq, r.balance AS old_balance, r.available AS old_available,
                      sum(r.delta) OVER (ORDER BY r.event_time, r.event_seq ROWS UNBOUNDED PRECEDING) AS balance
                 FROM inventory_records r
                WHERE r.account_id = $1 AND r.product_id = k.product_id AND r.lot_serial = k.lot_serial AND r.location_id = k.location_id
               OFFSET 0) AS b
     ) AS c
  )
  UPDATE inventory_records r
     SET balance = c.balance, available = c.available
    FROM computed c
   WHERE r.ctid = c.row_id AND (c.old_balance <> c.balance OR c.old_available <> c.available)`;

/** The timelines a batch touched, found through its events (index on inventory_records.event_id). */
export const BATCH_TIMELINES = `
  SELECT DISTINCT r.product_id, r.lot_serial, r.location_id
    FROM events e
   CROSS JOIN LATERAL (SELECT product_id, lot_serial, location_id FROM inventory_records WHERE event_id = e.id OFFSET 0) AS r
   WHERE e.batch_id = $1`;

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
      const keys = await query<{ product_id: string; lot_serial: string; location_id: string }>(BATCH_TIMELINES, [input.batchId]);
      if (!keys.length) return { timelines: 0, updated: 0 };
      await lockKeys(
        query,
        keys.map((k) => timelineKey(input.accountId, k.product_id, k.lot_serial, k.location_id)),
      );
      // Rows are written back by ctid, one at a time. Without fresh statistics (a table that just grew)
      // the planner would rather hash-join the whole table; these settings last until the commit.
      await sequelize.query('SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off', { transaction });
      const updated = await execute(
        sequelize,
        RECALCULATE,
        [input.accountId, keys.map((k) => k.product_id), keys.map((k) => k.lot_serial), keys.map((k) => k.location_id)],
        transaction,
      );
      return { timelines: keys.length, updated };
    });
}
