import type { Migration } from '../migrate';

/**
 * Captured EPCIS events carry their CBV 2.0 event hash id (payload EpcisHash): every capture looks up
 * the hashes it brings (a resent event is a duplicate) and EQ_eventID finds events by it.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE INDEX events_epcis_hash ON events (account_id, (payload ->> 'EpcisHash'))
      WHERE payload ? 'EpcisHash'
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP INDEX events_epcis_hash');
};
