import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export class InventoryRecord extends Model<InferAttributes<InventoryRecord>, InferCreationAttributes<InventoryRecord>> {
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
        accountId: { type: DataTypes.UUID, allowNull: false, field: 'account_id' },
        productId: { type: DataTypes.UUID, allowNull: false, field: 'product_id' },
        lotSerial: { type: DataTypes.TEXT, allowNull: false, field: 'lot_serial' },
        locationId: { type: DataTypes.UUID, allowNull: false, field: 'location_id' },
        eventId: { type: DataTypes.UUID, allowNull: false, field: 'event_id' },
        eventLineId: { type: DataTypes.BIGINT, allowNull: false, unique: true, field: 'event_line_id' },
        eventTime: { type: DataTypes.DATE, allowNull: false, field: 'event_time' },
        eventSeq: { type: DataTypes.BIGINT, allowNull: false, field: 'event_seq' },
        delta: { type: DataTypes.DECIMAL, allowNull: false },
        balance: { type: DataTypes.DECIMAL, allowNull: false },
        available: { type: DataTypes.DECIMAL, allowNull: false },
      },
      { sequelize, tableName: 'inventory_records', timestamps: false },
    );
  }
}
