import type { Migration } from '../migrate';

/**
 * An EPCIS capture job is a batch of mode 'epcis' (its captureID is the batch id), run by the same
 * processEventBatch workflow as every other batch.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    ALTER TABLE batches DROP CONSTRAINT batches_mode_check;
    ALTER TABLE batches ADD CONSTRAINT batches_mode_check CHECK (mode IN ('sync', 'async', 'json', 'retry', 'epcis'));
  `);
};

/** Capture jobs stay as batches: the closest mode is async (accepted at once, followed by its id). */
export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    ALTER TABLE batches DROP CONSTRAINT batches_mode_check;
    UPDATE batches SET mode = 'async' WHERE mode = 'epcis';
    ALTER TABLE batches ADD CONSTRAINT batches_mode_check CHECK (mode IN ('sync', 'async', 'json', 'retry'));
  `);
};
