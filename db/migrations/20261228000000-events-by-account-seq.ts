import type { Migration } from '../migrate';

/**
 * The EPCIS query interface (GET /epcis/events and every resource's /events) pages through an account's
 * events in the order they were recorded, after the last one a client has. Without an index on both,
 * PostgreSQL read all of the account's events and sorted them for each page, or walked every account's
 * events in seq order until it had found a page of this one's.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('CREATE INDEX events_account_seq ON events (account_id, seq)');
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP INDEX events_account_seq');
};
