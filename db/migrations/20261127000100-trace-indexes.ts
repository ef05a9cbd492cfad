import type { Migration } from '../migrate';

/**
 * For the trace's walk (db/queries/trace.ts):
 * - walking back over shipments asks "which ships went to this location?": events by destination;
 * - walking across transforms and aggregations asks for a lot's lines of those events only, which are
 *   the lines whose role is not 'instance': a partial index keeps the (often many) lines of ships,
 *   receipts and commissions of the same lot out of that step.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE INDEX events_destination ON events (destination_location_id) WHERE destination_location_id IS NOT NULL;
    CREATE INDEX event_lines_linked ON event_lines (product_id, lot_serial) WHERE role <> 'instance';
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP INDEX event_lines_linked; DROP INDEX events_destination');
};
