import type { Migration } from '../migrate';

/**
 * An EPCIS query by eventTime (GE_eventTime of the last hour, a day of last week) walked the account's
 * events in the order recorded until it found its page: 0.18 to 0.65 s at 1,000,000 events (bench:queries,
 * p50); one ordered by eventTime sorted them all: 5.4 s. By event time PostgreSQL reads the window (or the
 * least seq in it, where its page's walk starts: db/queries/epcis-events.ts), or walks that order: 15 to 29
 * ms, and 9 ms. seq is a key too: an ordered page's token is an (event_time, seq) place the next page starts
 * after. Built in the migration's transaction, as the others: inserts wait while it builds.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('CREATE INDEX events_account_event_time ON events (account_id, event_time, seq)');
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP INDEX events_account_event_time');
};
