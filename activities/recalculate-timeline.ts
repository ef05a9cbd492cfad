import type { BatchRef } from '../workflows/contracts';
import type { ActivityDeps } from './deps';
import { inTransaction, lockKeys, timelineKey } from './sql';

/**
 * balance = running sum of delta by (event_time, event_seq); available = running minimum of balance
 * from the end (domain/inventory-timeline computeTimeline). NUMERIC keeps both exact. Only rows of the
 * lots the batch touched are read, through the timeline index.
 */
const RECALCULATE = `
  WITH keys AS (
    SELECT * FROM unnest($2::uuid[], $3::text[], $4::uuid[]) AS k(product_id, lot_serial, location_id)
  ), balances AS (
    SELECT r.id, r.product_id, r.lot_serial, r.location_id, r.event_time, r.event_seq,
           sum(r.delta) OVER (PARTITION BY r.product_id, r.lot_serial, r.location_id
                              ORDER BY r.event_time, r.event_seq ROWS UNBOUNDED PRECEDING) AS balance
      FROM inventory_records r
      JOIN keys k ON r.product_id = k.product_id AND r.lot_serial = k.lot_serial AND r.location_id = k.location_id
     WHERE r.account_id = $1
  ), computed AS (
    SELECT id, balance,
           min(balance) OVER (PARTITION BY product_id, lot_serial, location_id
                              ORDER BY event_time DESC, event_seq DESC ROWS UNBOUNDED PRECEDING) AS available
      FROM balances
  )
  UPDATE inventory_records r
     SET balance = c.balance, available = c.available
    FROM computed c
   WHERE r.id = c.id AND (r.balance <> c.balance OR r.available <> c.available)`;

/**
 * Step 3: recomputes every timeline the batch touched, from the stored deltas, so the result is the same
 * however often it runs. It takes the same per-timeline locks as persistEvents: a recalculation never
 * works from a snapshot that misses a batch committed on the same lot meanwhile.
 */
export function recalculateTimeline(deps: ActivityDeps) {
  return async (input: BatchRef): Promise<{ timelines: number; updated: number }> =>
    inTransaction(deps.sequelize, async (client) => {
      const { rows: keys } = await client.query<{ product_id: string; lot_serial: string; location_id: string }>(
        `SELECT DISTINCT r.product_id, r.lot_serial, r.location_id
           FROM inventory_records r JOIN events e ON e.id = r.event_id
          WHERE e.batch_id = $1 AND r.account_id = $2`,
        [input.batchId, input.accountId],
      );
      if (!keys.length) return { timelines: 0, updated: 0 };
      await lockKeys(
        client,
        keys.map((k) => timelineKey(input.accountId, k.product_id, k.lot_serial, k.location_id)),
      );
      const result = await client.query(RECALCULATE, [
        input.accountId,
        keys.map((k) => k.product_id),
        keys.map((k) => k.lot_serial),
        keys.map((k) => k.location_id),
      ]);
      return { timelines: keys.length, updated: result.rowCount ?? 0 };
    });
}
