import type { Migration } from '../migrate';

/**
 * The GS1 company prefixes each account's captured events spell out in EPC URNs: GS1-EPC-Format
 * Always_EPC_URN reads them to turn a Digital Link of the same company into a URN. It used to find them
 * by reading every captured event of the account on each such query. Filled from the events already
 * stored, then kept by the persist step.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE TABLE epcis_company_prefixes (
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      prefix     text NOT NULL,
      PRIMARY KEY (account_id, prefix)
    );
    INSERT INTO epcis_company_prefixes (account_id, prefix)
    SELECT DISTINCT e.account_id, m[1]
      FROM events e
     CROSS JOIN LATERAL regexp_matches(e.payload ->> 'Epcis', 'urn:epc:(?:id|class|idpat):(?:sgtin|lgtin|sgln|sscc):([0-9]{6,12})\\.', 'g') AS m
     WHERE e.payload ? 'Epcis';
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('DROP TABLE epcis_company_prefixes');
};
