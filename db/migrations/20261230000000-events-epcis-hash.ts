import type { Migration } from '../migrate';
import { recomputeEpcisHashes } from '../repositories/epcis-originals';

/**
 * Captured EPCIS events get their CBV 2.0 event hash id in a column of its own, recomputed from each
 * event's original: the earlier hash left parts of an event out (an extension's text beside its
 * attributes, extensions inside readPoint and bizLocation) and kept repetitions in document order, so
 * different events shared a hash and one event stored twice had two. The payload's EpcisHash stays as it
 * was computed at capture: the ledger covers the payload, and rewriting it would break the chain.
 * An event keeps the eventID it was captured with (a client may hold it); EQ_eventID finds it by either.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('ALTER TABLE events ADD COLUMN epcis_hash text');
  await recomputeEpcisHashes(sequelize);
  await sequelize.query(
    'CREATE INDEX events_account_epcis_hash ON events (account_id, epcis_hash) WHERE epcis_hash IS NOT NULL',
  );
  await sequelize.query('DROP INDEX events_epcis_hash');
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(
    "CREATE INDEX events_epcis_hash ON events (account_id, (payload ->> 'EpcisHash')) WHERE payload ? 'EpcisHash'",
  );
  await sequelize.query('ALTER TABLE events DROP COLUMN epcis_hash');
};
