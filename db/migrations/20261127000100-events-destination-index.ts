import type { Migration } from '../migrate';

/**
 * A trace walks shipments backwards: "which ships went to this location (or to a location with its
 * verified GLN)?" reads events by destination, which no index served.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('CREATE INDEX events_destination ON events (destination_location_id) WHERE destination_location_id IS NOT NULL');
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP INDEX events_destination');
};
