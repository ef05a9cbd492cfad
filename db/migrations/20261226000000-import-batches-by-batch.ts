import type { Migration } from '../migrate';

/**
 * An import's chunks are stored as batches with its upload, before its workflow runs: the reconciler leaves
 * such a batch to its import (db/queries/stranded-batches.ts), and finds its import by the batch.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('CREATE INDEX import_batches_batch ON import_batches (batch_id) WHERE batch_id IS NOT NULL;');
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP INDEX import_batches_batch;');
};
