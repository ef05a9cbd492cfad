import type { CreationOptional } from 'sequelize';
import { DataTypes, Row, masterDataKeys, nullable, required, uuidKey, type Sequelize } from './row';

export type ConnectionType = 'SELF' | 'SUPPLIER' | 'BUYER' | 'OTHER';

export class TradePartner extends Row<TradePartner> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare externalId: string | null;
  declare urn: string;
  declare name: string;
  declare connectionType: ConnectionType;
  declare duns: string | null;
  declare pgln: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    TradePartner.init(
      {
        id: uuidKey,
        accountId: required(DataTypes.UUID),
        ...masterDataKeys,
        connectionType: required(DataTypes.TEXT),
        duns: nullable(DataTypes.TEXT),
        pgln: nullable(DataTypes.TEXT),
      },
      { sequelize, tableName: 'trade_partners' },
    );
  }
}
