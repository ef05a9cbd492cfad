import type { Migration } from '../migrate';

/** The request that submitted a batch: whoever starts its workflow (the API, the reconciler) passes it on. */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('ALTER TABLE batches ADD COLUMN request_id text');
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('ALTER TABLE batches DROP COLUMN request_id');
};
