/**
 * Inventory timelines as stored: one (account, product, lot, location)'s records ordered by
 * (event_time, event_seq, event_line_id): the lines of one event on one timeline in their order. Writers of a timeline hold its advisory lock (db/sql lockKeys) until they commit.
 */
import type { Sequelize, Transaction } from 'sequelize';
import type { TimelinePoint } from '../../domain/inventory-timeline';
import { toScaled } from '../../domain/decimal';
import { executeOf, groupBy, lockingTimelinesSql, lockKeys, timelineKey, unnestArrays, type Query } from '../sql';

export interface TimelineRef {
  productId: string;
  lotSerial: string;
  locationId: string;
}
const TIMELINE_KEYS = ['productId', 'lotSerial', 'locationId'] as const;

/** Takes the timelines' locks (held until the transaction ends), in an order that cannot deadlock. */
export const lockTimelines = (query: Query, accountId: string, timelines: readonly TimelineRef[]): Promise<void> =>
  lockKeys(
    query,
    timelines.map((t) => timelineKey(accountId, t.productId, t.lotSerial, t.locationId)),
  );

/**
 * The stored records of the given timelines, one query for all of them, by timeline key (db/sql
 * timelineKey); a timeline with no records has no entry.
 */
export async function timelineRecords(
  query: Query,
  accountId: string,
  timelines: readonly TimelineRef[],
): Promise<Map<string, TimelinePoint[]>> {
  if (!timelines.length) return new Map();
  const rows = await query<{
    product_id: string;
    lot_serial: string;
    location_id: string;
    event_time: Date;
    event_seq: string;
    delta: string;
    balance: string;
    available: string;
  }>(
    // One range of the timeline index per key: LATERAL + OFFSET 0 keeps the planner from hashing the whole
    // account, and the ORDER BY makes the timeline index the obvious choice even with stale statistics.
    `SELECT k.product_id, k.lot_serial, k.location_id, r.event_time, r.event_seq, r.delta::text AS delta,
            r.balance::text AS balance, r.available::text AS available
       FROM unnest($2::uuid[], $3::text[], $4::uuid[]) AS k(product_id, lot_serial, location_id)
      CROSS JOIN LATERAL (
        SELECT event_time, event_seq, delta, balance, available FROM inventory_records
         WHERE account_id = $1 AND product_id = k.product_id AND lot_serial = k.lot_serial AND location_id = k.location_id
         ORDER BY event_time, event_seq, event_line_id
        OFFSET 0) AS r`,
    [accountId, ...unnestArrays(timelines, TIMELINE_KEYS)],
  );
  return groupBy(rows, (row) => [
    timelineKey(accountId, row.product_id, row.lot_serial, row.location_id),
    {
      time: row.event_time.getTime(),
      seq: BigInt(row.event_seq),
      delta: toScaled(row.delta),
      balance: toScaled(row.balance),
      available: toScaled(row.available),
    },
  ]);
}

/** The timelines a batch touched, found through its events (index on inventory_records.event_id). */
const BATCH_TIMELINES = `
  SELECT DISTINCT r.product_id, r.lot_serial, r.location_id
    FROM events e
   CROSS JOIN LATERAL (SELECT product_id, lot_serial, location_id FROM inventory_records WHERE event_id = e.id OFFSET 0) AS r
   WHERE e.batch_id = $1`;

/** The timelines batch `batchId` of the account touched, locked as lockTimelines locks them, in one statement. */
export async function lockBatchTimelines(query: Query, accountId: string, batchId: string): Promise<TimelineRef[]> {
  return query<TimelineRef>(lockingTimelinesSql(BATCH_TIMELINES, '$2'), [batchId, accountId]);
}

/**
 * balance = running sum of delta by (event_time, event_seq, event_line_id); available = running minimum of balance
 * from the end (domain/inventory-timeline computeTimeline). NUMERIC keeps both exact. Each timeline is
 * read on its own through the timeline index (LATERAL, with OFFSET 0 so the planner cannot turn it
 * into one hash join over all of the account's records): the cost is that of the touched lots only.
 * Changed rows are written back by ctid, which is stable here: the lots' locks keep other writers out.
 */
const RECALCULATE = `
  WITH computed AS (
    SELECT c.row_id, c.balance, c.available, c.old_balance, c.old_available
      FROM unnest($2::uuid[], $3::text[], $4::uuid[]) AS k(product_id, lot_serial, location_id)
     CROSS JOIN LATERAL (
       SELECT b.row_id, b.balance, b.old_balance, b.old_available,
              min(b.balance) OVER (ORDER BY b.event_time DESC, b.event_seq DESC, b.event_line_id DESC ROWS UNBOUNDED PRECEDING) AS available
         FROM (SELECT r.ctid AS row_id, r.event_time, r.event_seq, r.event_line_id, r.balance AS old_balance, r.available AS old_available,
                      sum(r.delta) OVER (ORDER BY r.event_time, r.event_seq, r.event_line_id ROWS UNBOUNDED PRECEDING) AS balance
                 FROM inventory_records r
                WHERE r.account_id = $1 AND r.product_id = k.product_id AND r.lot_serial = k.lot_serial AND r.location_id = k.location_id
               OFFSET 0) AS b
     ) AS c
  )
  UPDATE inventory_records r
     SET balance = c.balance, available = c.available
    FROM computed c
   WHERE r.ctid = c.row_id AND (c.old_balance <> c.balance OR c.old_available <> c.available)`;

/**
 * Writes balance and available of every record of the timelines from their deltas; returns the number of
 * rows that changed. The caller holds the timelines' locks (lockTimelines, lockBatchTimelines) in `transaction`.
 */
export async function recalculateTimelines(
  sequelize: Sequelize,
  transaction: Transaction,
  accountId: string,
  timelines: readonly TimelineRef[],
): Promise<number> {
  // Rows are written back by ctid, one at a time. Without fresh statistics (a table that just grew)
  // the planner would rather hash-join the whole table; these settings last until the commit.
  await sequelize.query('SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off', { transaction });
  return executeOf(sequelize, transaction)(RECALCULATE, [accountId, ...unnestArrays(timelines, TIMELINE_KEYS)]);
}
