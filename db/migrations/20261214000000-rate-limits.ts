import type { Migration } from '../migrate';

/**
 * Fair use. An account's own rate limit, when the operator set one (`npm run apikey -- limit`), beside
 * the account; NULL takes the service's default. rate_limit_counters is the store of
 * rate-limiter-flexible's RateLimiterPostgres, in the shape it reads and writes, created here rather than
 * by the library at start-up so the schema is ours: every API replica counts in the same rows.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    ALTER TABLE accounts
      ADD COLUMN rate_limit_per_second integer CHECK (rate_limit_per_second > 0),
      ADD COLUMN rate_limit_burst integer CHECK (rate_limit_burst >= 0),
      ADD CONSTRAINT accounts_rate_limit_both CHECK ((rate_limit_per_second IS NULL) = (rate_limit_burst IS NULL))`);
  await sequelize.query(`
    CREATE TABLE rate_limit_counters (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    )`);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP TABLE rate_limit_counters');
  await sequelize.query(
    'ALTER TABLE accounts DROP CONSTRAINT accounts_rate_limit_both, DROP COLUMN rate_limit_burst, DROP COLUMN rate_limit_per_second',
  );
};
