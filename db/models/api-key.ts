import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type NonAttribute,
  type Sequelize,
} from 'sequelize';
import type { Account } from './account';

/** 'support' keys see and retry every account's batches; a key is 'account' unless created otherwise. */
export type ApiKeyRole = 'account' | 'support';
export const API_KEY_ROLES: readonly ApiKeyRole[] = ['account', 'support'];

export class ApiKey extends Model<InferAttributes<ApiKey>, InferCreationAttributes<ApiKey>> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  /** The public part of the key, used to find the row; the secret is only ever stored hashed. */
  declare lookup: string;
  declare keyHash: Buffer;
  declare label: string | null;
  declare role: CreationOptional<ApiKeyRole>;
  declare createdAt: CreationOptional<Date>;
  declare revokedAt: Date | null;
  declare account?: NonAttribute<Account>;

  static initModel(sequelize: Sequelize): void {
    ApiKey.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        accountId: { type: DataTypes.UUID, allowNull: false, field: 'account_id' },
        lookup: { type: DataTypes.TEXT, allowNull: false, unique: true },
        keyHash: { type: DataTypes.BLOB, allowNull: false, field: 'key_hash' },
        label: { type: DataTypes.TEXT, allowNull: true },
        role: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'account' },
        createdAt: { type: DataTypes.DATE, allowNull: false, field: 'created_at' },
        revokedAt: { type: DataTypes.DATE, allowNull: true, field: 'revoked_at' },
      },
      { sequelize, tableName: 'api_keys', updatedAt: false },
    );
  }
}
