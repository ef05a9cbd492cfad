import type { Migration } from '../migrate';

/**
 * The negative-lots gauge of /metrics counts the timelines with a record below zero at every scrape:
 * the partial index holds only those records (normally none), so the count never scans the table.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(
    'CREATE INDEX inventory_records_negative ON inventory_records (account_id, product_id, lot_serial, location_id) WHERE available < 0',
  );
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP INDEX inventory_records_negative');
};
