import type { Migration } from '../migrate';

/**
 * A Failed batch whose caller waited for it (a sync call) and was answered its refusal: the caller holds
 * the 400 and every error, so the batch is no case for support and no reason for the failed-open alert.
 * A sync call whose wait ran out got a 202 instead, and its batch stays open like an async one.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    ALTER TABLE batches
      ADD COLUMN refusal_answered_at timestamptz,
      ADD CONSTRAINT batches_refusal_answered_failed CHECK (refusal_answered_at IS NULL OR status = 'Failed')`);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(
    'ALTER TABLE batches DROP CONSTRAINT batches_refusal_answered_failed, DROP COLUMN refusal_answered_at',
  );
};
