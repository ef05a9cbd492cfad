import type { Migration } from '../migrate';

/**
 * Where a batch came from: the request id (whoever starts its workflow, the API or the reconciler,
 * passes it on) and the hash of the request body, which binds an Idempotency-Key to one request.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('ALTER TABLE batches ADD COLUMN request_id text, ADD COLUMN request_hash text');
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('ALTER TABLE batches DROP COLUMN request_id, DROP COLUMN request_hash');
};
