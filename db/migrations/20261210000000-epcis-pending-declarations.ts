import type { Migration } from '../migrate';

/**
 * An EPCIS error declaration of an event the account does not hold is kept as an event of its own
 * (payload EpcisPendingDeclaration: the eventID it declares) until that event arrives; every capture
 * looks up the declarations pending for its eventIDs.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE UNIQUE INDEX events_epcis_pending_declaration ON events (account_id, (payload ->> 'EpcisPendingDeclaration'))
      WHERE payload ? 'EpcisPendingDeclaration'
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP INDEX events_epcis_pending_declaration');
};
