import type { Migration } from '../migrate';

/**
 * Each stored event's GDST KDE warnings, derived when the batch is stored from the master data it was
 * stored against (a location named by Id and one sent with Details alike): one array per event, in
 * batch order. NULL for batches stored before, whose warnings are still derived from their request.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('ALTER TABLE batches ADD COLUMN warnings jsonb');
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('ALTER TABLE batches DROP COLUMN warnings');
};
