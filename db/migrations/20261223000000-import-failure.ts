import type { Migration } from '../migrate';

/**
 * An import whose split step failed for good (its file unreadable, or the step out of attempts) is
 * recorded as Failed with the reason: without these it stayed Accepted. The partial index is what the
 * reconciler reads each pass: imports stored but never split, to start their workflow.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    ALTER TABLE imports ADD COLUMN failed_at timestamptz, ADD COLUMN failure text;
    CREATE INDEX imports_unsplit ON imports (seq) WHERE split_at IS NULL AND failed_at IS NULL AND NOT refused;
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP INDEX imports_unsplit; ALTER TABLE imports DROP COLUMN failure, DROP COLUMN failed_at;');
};
