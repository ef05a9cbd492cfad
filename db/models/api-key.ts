import { DataTypes, Row, nullable, required, uuidKey, type CreationOptional, type Sequelize } from './row';

/** 'support' keys see and retry every account's batches; a key is 'account' unless created otherwise. */
export type ApiKeyRole = 'account' | 'support';
export const API_KEY_ROLES: readonly ApiKeyRole[] = ['account', 'support'];

export class ApiKey extends Row<ApiKey> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  /** The public part of the key, used to find the row; the secret is only ever stored hashed. */
  declare lookup: string;
  declare keyHash: Buffer;
  declare label: string | null;
  declare role: CreationOptional<ApiKeyRole>;
  declare createdAt: CreationOptional<Date>;
  declare revokedAt: Date | null;

  static initModel(sequelize: Sequelize): void {
    ApiKey.init(
      {
        id: uuidKey,
        accountId: required(DataTypes.UUID),
        lookup: required(DataTypes.TEXT, { unique: true }),
        keyHash: required(DataTypes.BLOB),
        label: nullable(DataTypes.TEXT),
        role: required(DataTypes.TEXT, { defaultValue: 'account' }),
        createdAt: required(DataTypes.DATE),
        revokedAt: nullable(DataTypes.DATE),
      },
      { sequelize, tableName: 'api_keys', updatedAt: false },
    );
  }
}
