import type { Migration } from '../migrate';

/**
 * What a key may do: 'account' keys see their own account's data; 'support' keys also see and retry
 * every account's batches. Existing keys stay 'account': support rights are only ever given on purpose.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(
    `ALTER TABLE api_keys ADD COLUMN role text NOT NULL DEFAULT 'account' CHECK (role IN ('account', 'support'))`,
  );
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('ALTER TABLE api_keys DROP COLUMN role');
};
