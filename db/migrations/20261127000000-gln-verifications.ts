import type { Migration } from '../migrate';

/**
 * Which account owns which GLN, as the service's operator verified it (`npm run gln -- verify`). Anyone
 * can type a GLN on a location; only a verified one makes another account's shipments to that GLN
 * visible to its owner. A GLN belongs to one organisation, so to one account at most.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE TABLE gln_verifications (
      gln          text PRIMARY KEY CHECK (gln ~ '^[0-9]{13}$'),
      account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      verified_at  timestamptz NOT NULL DEFAULT now(),
      verified_by  text NOT NULL
    );
    CREATE INDEX gln_verifications_account ON gln_verifications (account_id);
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP TABLE gln_verifications');
};
