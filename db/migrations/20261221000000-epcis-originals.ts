import type { Migration } from '../migrate';

/**
 * A captured EPCIS event's original, its query index and its document's namespace definitions, stored
 * once: the capture writes them here with its batch, and the batch's request and the event's payload
 * name the row (EpcisOriginal) instead of holding a copy each. Events captured before keep theirs in
 * their payload (Epcis, EpcisIndex, EpcisContext), and are read from there.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE TABLE epcis_originals (
      id uuid PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      epcis jsonb NOT NULL,
      epcis_index jsonb NOT NULL,
      context jsonb
    )
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP TABLE epcis_originals');
};
