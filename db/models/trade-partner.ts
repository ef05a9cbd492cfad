import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export type ConnectionType = 'SELF' | 'SUPPLIER' | 'BUYER' | 'OTHER';

export class TradePartner extends Model<InferAttributes<TradePartner>, InferCreationAttributes<TradePartner>> {
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
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        accountId: { type: DataTypes.UUID, allowNull: false, field: 'account_id' },
        externalId: { type: DataTypes.TEXT, allowNull: true, field: 'external_id' },
        urn: { type: DataTypes.TEXT, allowNull: false },
        name: { type: DataTypes.TEXT, allowNull: false },
        connectionType: { type: DataTypes.TEXT, allowNull: false, field: 'connection_type' },
        duns: { type: DataTypes.TEXT, allowNull: true },
        pgln: { type: DataTypes.TEXT, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false, field: 'created_at' },
        updatedAt: { type: DataTypes.DATE, allowNull: false, field: 'updated_at' },
      },
      { sequelize, tableName: 'trade_partners' },
    );
  }
}
