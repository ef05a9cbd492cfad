import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export class Account extends Model<InferAttributes<Account>, InferCreationAttributes<Account>> {
  declare id: CreationOptional<string>;
  declare name: string;
  declare createdAt: CreationOptional<Date>;
  /** The operator's limit for this account's keys (`npm run apikey -- limit`); null takes the service's default. */
  declare rateLimitPerSecond: CreationOptional<number | null>;
  declare rateLimitBurst: CreationOptional<number | null>;

  static initModel(sequelize: Sequelize): void {
    Account.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        name: { type: DataTypes.TEXT, allowNull: false, unique: true },
        createdAt: { type: DataTypes.DATE, allowNull: false, field: 'created_at' },
        rateLimitPerSecond: { type: DataTypes.INTEGER, allowNull: true, field: 'rate_limit_per_second' },
        rateLimitBurst: { type: DataTypes.INTEGER, allowNull: true, field: 'rate_limit_burst' },
      },
      { sequelize, tableName: 'accounts', updatedAt: false },
    );
  }
}
