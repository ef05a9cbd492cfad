import type { Migration } from '../migrate';

/** Event details look a lot up across accounts (shipments to the caller), so lot_serial alone needs an index. */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('CREATE INDEX event_lines_lot ON event_lines (lot_serial)');
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP INDEX event_lines_lot');
};
