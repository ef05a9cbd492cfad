import type { Migration } from '../migrate';
import { recomputeEpcisHashes } from '../repositories/epcis-originals';

/**
 * Captured events' CBV 2.0 event hash ids computed again after four rules were corrected: a GRAI's
 * Digital Link begins with a 0; a Digital Link is taken in its constrained form (no query string, a GTIN
 * of 14 digits, the serial without the lot, one percent-encoding); a time below the millisecond is rounded
 * to it; GS1's `cbvmda` namespace is one with or without its `#`, and a context's prefixes count beside
 * the terms it types. An event the earlier rules hashed apart from its twin now shares its hash id.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await recomputeEpcisHashes(sequelize);
};

/** The earlier rules are gone: the hash ids stay as they are. */
export const down: Migration = async () => {};
