import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export type LineRole = 'instance' | 'input' | 'output' | 'parent' | 'child';

export class EventLine extends Model<InferAttributes<EventLine>, InferCreationAttributes<EventLine>> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare eventId: string;
  declare position: number;
  declare role: LineRole;
  declare productId: string;
  declare lotSerial: string;
  declare quantity: string;

  static initModel(sequelize: Sequelize): void {
    EventLine.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        accountId: { type: DataTypes.UUID, allowNull: false, field: 'account_id' },
        eventId: { type: DataTypes.UUID, allowNull: false, field: 'event_id' },
        position: { type: DataTypes.INTEGER, allowNull: false },
        role: { type: DataTypes.TEXT, allowNull: false },
        productId: { type: DataTypes.UUID, allowNull: false, field: 'product_id' },
        lotSerial: { type: DataTypes.TEXT, allowNull: false, field: 'lot_serial' },
        quantity: { type: DataTypes.DECIMAL, allowNull: false },
      },
      { sequelize, tableName: 'event_lines', timestamps: false },
    );
  }
}
