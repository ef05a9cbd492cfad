import type { Migration } from '../migrate';

/*
 * For the pipeline's timeline steps (persistEvents' check, recalculateTimeline):
 * - they find the timelines a batch touched through its events' records: index on event_id (which the
 *   ON DELETE CASCADE from events wants too);
 * - they read one (product, lot, location) timeline at a time. The per-location index gets lot_serial,
 *   event_time and event_seq too, so whichever of the two indexes the planner picks (before statistics
 *   exist it cannot tell them apart) reads exactly that lot's records, in timeline order; queries by
 *   location keep the same leading columns;
 * - recalculating rewrites balance and available, which no index holds: with free space left on each
 *   page PostgreSQL updates those rows in place (HOT) instead of adding an entry to every index per row.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE INDEX inventory_records_event ON inventory_records (event_id);
    CREATE INDEX inventory_records_location_lot ON inventory_records (account_id, location_id, product_id, lot_serial, event_time, event_seq);
    DROP INDEX inventory_records_location;
    ALTER TABLE inventory_records SET (fillfactor = 50);
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    ALTER TABLE inventory_records RESET (fillfactor);
    CREATE INDEX inventory_records_location ON inventory_records (account_id, location_id, product_id);
    DROP INDEX inventory_records_location_lot;
    DROP INDEX inventory_records_event;
  `);
};
