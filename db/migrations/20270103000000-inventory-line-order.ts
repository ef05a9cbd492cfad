import type { Migration } from '../migrate';

/**
 * Lines of one event on one timeline (two lines of a lot in one commission; a transform whose output is
 * its input's lot) share (event_time, event_seq). The recalculation ordered them either way, and each of
 * its two passes its own way: one commission of 10 and 20 read 10 available, not 30. They are now taken in
 * their order (event_line_id); the timelines that hold such lines are recalculated so.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  // One statement list, so one transaction: it holds the timelines' locks (db/sql.ts lockKeys, timelineKey)
  // from the first statement on, and a batch persisted meanwhile waits for it.
  await sequelize.query(`
    SELECT count(pg_advisory_xact_lock(h)) FROM (
      SELECT DISTINCT hashtextextended('inventory|' || account_id::text || '|' || product_id::text || '|' || lot_serial || '|' || location_id::text, 0) AS h
        FROM inventory_records
       GROUP BY account_id, product_id, lot_serial, location_id, event_time, event_seq
      HAVING count(*) > 1
       ORDER BY 1) AS sorted;
    WITH tied AS (
      SELECT DISTINCT account_id, product_id, lot_serial, location_id
        FROM inventory_records
       GROUP BY account_id, product_id, lot_serial, location_id, event_time, event_seq
      HAVING count(*) > 1
    ), computed AS (
      SELECT b.row_id, b.balance,
             min(b.balance) OVER (PARTITION BY b.account_id, b.product_id, b.lot_serial, b.location_id
                                  ORDER BY b.event_time DESC, b.event_seq DESC, b.event_line_id DESC ROWS UNBOUNDED PRECEDING) AS available
        FROM (SELECT r.ctid AS row_id, r.account_id, r.product_id, r.lot_serial, r.location_id, r.event_time, r.event_seq, r.event_line_id,
                     sum(r.delta) OVER (PARTITION BY r.account_id, r.product_id, r.lot_serial, r.location_id
                                        ORDER BY r.event_time, r.event_seq, r.event_line_id ROWS UNBOUNDED PRECEDING) AS balance
                FROM inventory_records r JOIN tied t USING (account_id, product_id, lot_serial, location_id)) AS b
    )
    UPDATE inventory_records r SET balance = c.balance, available = c.available
      FROM computed c
     WHERE r.ctid = c.row_id AND (r.balance <> c.balance OR r.available <> c.available)`);
};

/** Nothing to undo: the order taken is one the earlier version could take too. */
export const down: Migration = async () => {};
