import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export class EventDocument extends Model<InferAttributes<EventDocument>, InferCreationAttributes<EventDocument>> {
  declare accountId: string;
  declare eventId: string;
  declare documentId: string;

  static initModel(sequelize: Sequelize): void {
    EventDocument.init(
      {
        accountId: { type: DataTypes.UUID, allowNull: false, field: 'account_id' },
        eventId: { type: DataTypes.UUID, primaryKey: true, field: 'event_id' },
        documentId: { type: DataTypes.UUID, primaryKey: true, field: 'document_id' },
      },
      { sequelize, tableName: 'event_documents', timestamps: false },
    );
  }
}
