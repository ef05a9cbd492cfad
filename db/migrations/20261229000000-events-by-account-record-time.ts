import type { Migration } from '../migrate';

/**
 * A partner polls the EPCIS query interface for what was recorded since its last poll (GE_recordTime).
 * Without an index on both, PostgreSQL read all of the account's events to find the few new ones; with
 * seq in it, the least seq among them (where the page's walk starts) is read from the index alone.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('CREATE INDEX events_account_created ON events (account_id, created_at) INCLUDE (seq)');
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP INDEX events_account_created');
};
