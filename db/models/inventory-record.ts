import { DataTypes, Row, required, type CreationOptional, type Sequelize } from './row';

export class InventoryRecord extends Row<InventoryRecord> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare productId: string;
  declare lotSerial: string;
  declare locationId: string;
  declare eventId: string;
  declare eventLineId: string;
  declare eventTime: Date;
  declare eventSeq: string;
  declare delta: string;
  declare balance: string;
  declare available: string;

  static initModel(sequelize: Sequelize): void {
    InventoryRecord.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        accountId: required(DataTypes.UUID),
        productId: required(DataTypes.UUID),
        lotSerial: required(DataTypes.TEXT),
        locationId: required(DataTypes.UUID),
        eventId: required(DataTypes.UUID),
        eventLineId: required(DataTypes.BIGINT, { unique: true }),
        eventTime: required(DataTypes.DATE),
        eventSeq: required(DataTypes.BIGINT),
        delta: required(DataTypes.DECIMAL),
        balance: required(DataTypes.DECIMAL),
        available: required(DataTypes.DECIMAL),
      },
      { sequelize, tableName: 'inventory_records', timestamps: false },
    );
  }
}
