import type { Migration } from '../migrate';

/**
 * An EPCIS error declaration is stored as the reversal of the event it declares, pointing at it
 * (payload EpcisDeclarationOf): every answer about an event looks its declaration up, and at most one
 * declaration may reverse an event.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE UNIQUE INDEX events_epcis_declaration ON events (account_id, (payload ->> 'EpcisDeclarationOf'))
      WHERE payload ? 'EpcisDeclarationOf'
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP INDEX events_epcis_declaration');
};
