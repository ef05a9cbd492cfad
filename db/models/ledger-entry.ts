import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export class LedgerEntry extends Model<InferAttributes<LedgerEntry>, InferCreationAttributes<LedgerEntry>> {
  declare accountId: string;
  declare sequence: string;
  declare eventId: string;
  declare payloadHash: string;
  declare previousHash: string;
  declare hash: string;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    LedgerEntry.init(
      {
        accountId: { type: DataTypes.UUID, primaryKey: true, field: 'account_id' },
        sequence: { type: DataTypes.BIGINT, primaryKey: true },
        eventId: { type: DataTypes.UUID, allowNull: false, unique: true, field: 'event_id' },
        payloadHash: { type: DataTypes.TEXT, allowNull: false, field: 'payload_hash' },
        previousHash: { type: DataTypes.TEXT, allowNull: false, field: 'previous_hash' },
        hash: { type: DataTypes.TEXT, allowNull: false },
        createdAt: { type: DataTypes.DATE, allowNull: false, field: 'created_at' },
      },
      { sequelize, tableName: 'ledger_entries', updatedAt: false },
    );
  }
}
