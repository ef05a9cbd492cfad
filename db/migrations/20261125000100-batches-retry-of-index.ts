import type { Migration } from '../migrate';

/**
 * Every batch listed or shown names its newest retry (retriedBy), and the failed-batches gauge skips
 * batches that were retried: both look batches up by retry_of, which few rows have.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('CREATE INDEX batches_retry_of ON batches (retry_of, seq) WHERE retry_of IS NOT NULL');
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP INDEX batches_retry_of');
};
