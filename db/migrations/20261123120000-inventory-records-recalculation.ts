import type { Migration } from '../migrate';

/*
 * For the pipeline's recalculation step (activities/recalculate-timeline):
 * - it finds the timelines a batch touched through its events' records: index on event_id (which the
 *   ON DELETE CASCADE from events wants too);
 * - it rewrites balance and available of a lot's records. Neither column is indexed, so with free space
 *   left on each page PostgreSQL updates the rows in place (HOT) instead of adding an entry to every
 *   index per row: a historical insert into a 10,000-record lot rewrites ~10,000 rows.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE INDEX inventory_records_event ON inventory_records (event_id);
    ALTER TABLE inventory_records SET (fillfactor = 50);
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    ALTER TABLE inventory_records RESET (fillfactor);
    DROP INDEX inventory_records_event;
  `);
};
