import type { EventType } from '../../domain/events';
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export class Event extends Model<InferAttributes<Event>, InferCreationAttributes<Event>> {
  declare id: CreationOptional<string>;
  declare seq: CreationOptional<string>;
  declare accountId: string;
  declare batchId: string;
  declare externalEventId: string;
  declare type: EventType;
  declare eventTime: Date;
  declare eventTimeZone: string;
  declare locationId: string;
  declare sourceLocationId: string | null;
  declare destinationLocationId: string | null;
  declare purchaseOrder: string | null;
  declare invoiceNumber: string | null;
  declare referenceDocumentId: string | null;
  declare bizStep: string | null;
  declare disposition: string | null;
  declare urn: string;
  /** A captured EPCIS event's CBV 2.0 event hash id (a pending error declaration's: its event's). */
  declare epcisHash: string | null;
  /** The event as the caller sent it, for the record and for event-detail queries. */
  declare payload: unknown;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    Event.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        seq: { type: DataTypes.BIGINT, autoIncrement: true, allowNull: false },
        accountId: { type: DataTypes.UUID, allowNull: false, field: 'account_id' },
        batchId: { type: DataTypes.UUID, allowNull: false, field: 'batch_id' },
        externalEventId: { type: DataTypes.TEXT, allowNull: false, field: 'external_event_id' },
        type: { type: DataTypes.TEXT, allowNull: false },
        eventTime: { type: DataTypes.DATE, allowNull: false, field: 'event_time' },
        eventTimeZone: { type: DataTypes.TEXT, allowNull: false, field: 'event_time_zone' },
        locationId: { type: DataTypes.UUID, allowNull: false, field: 'location_id' },
        sourceLocationId: { type: DataTypes.UUID, allowNull: true, field: 'source_location_id' },
        destinationLocationId: { type: DataTypes.UUID, allowNull: true, field: 'destination_location_id' },
        purchaseOrder: { type: DataTypes.TEXT, allowNull: true, field: 'purchase_order' },
        invoiceNumber: { type: DataTypes.TEXT, allowNull: true, field: 'invoice_number' },
        referenceDocumentId: { type: DataTypes.TEXT, allowNull: true, field: 'reference_document_id' },
        bizStep: { type: DataTypes.TEXT, allowNull: true, field: 'biz_step' },
        disposition: { type: DataTypes.TEXT, allowNull: true },
        urn: { type: DataTypes.TEXT, allowNull: false },
        epcisHash: { type: DataTypes.TEXT, allowNull: true, field: 'epcis_hash' },
        payload: { type: DataTypes.JSONB, allowNull: false },
        createdAt: { type: DataTypes.DATE, allowNull: false, field: 'created_at' },
      },
      { sequelize, tableName: 'events', updatedAt: false },
    );
  }
}
