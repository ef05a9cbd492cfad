import type { Migration } from '../migrate';

/**
 * Every request counts against its key in rate_limit_counters, and each count committed on its own waited
 * for the WAL to reach the disk (about 0.3–0.4 ms here, with the counter's row locked meanwhile for the
 * key's other requests). Unlogged, the table writes no WAL and its commits do not wait. After a
 * PostgreSQL crash (or on a standby promoted in its place) it starts empty: every count begins again,
 * so a key may send its burst again, and an address its wrong keys.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('ALTER TABLE rate_limit_counters SET UNLOGGED');
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('ALTER TABLE rate_limit_counters SET LOGGED');
};
