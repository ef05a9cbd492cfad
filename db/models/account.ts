import { DataTypes, Row, nullable, required, uuidKey, type CreationOptional, type Sequelize } from './row';

export class Account extends Row<Account> {
  declare id: CreationOptional<string>;
  declare name: string;
  declare createdAt: CreationOptional<Date>;
  /** The operator's limit for this account's keys (`npm run apikey -- limit`); null takes the service's default. */
  declare rateLimitPerSecond: CreationOptional<number | null>;
  declare rateLimitBurst: CreationOptional<number | null>;

  static initModel(sequelize: Sequelize): void {
    Account.init(
      {
        id: uuidKey,
        name: required(DataTypes.TEXT, { unique: true }),
        createdAt: required(DataTypes.DATE),
        rateLimitPerSecond: nullable(DataTypes.INTEGER),
        rateLimitBurst: nullable(DataTypes.INTEGER),
      },
      { sequelize, tableName: 'accounts', updatedAt: false },
    );
  }
}
