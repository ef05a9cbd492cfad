import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export type BatchMode = 'sync' | 'async' | 'json' | 'retry' | 'epcis';
export type BatchStatus = 'Accepted' | 'Running' | 'Completed' | 'Failed';

export class Batch extends Model<InferAttributes<Batch>, InferCreationAttributes<Batch>> {
  declare id: CreationOptional<string>;
  declare seq: CreationOptional<string>;
  declare accountId: string;
  declare workflowId: string;
  declare idempotencyKey: string | null;
  declare mode: BatchMode;
  declare status: BatchStatus;
  declare eventCount: number;
  declare request: unknown;
  declare result: unknown;
  declare errors: unknown;
  /** Each event's GDST KDE warnings, in batch order, derived from stored master data; null before they were kept. */
  declare warnings: unknown;
  declare submittedAt: CreationOptional<Date>;
  declare startedAt: Date | null;
  declare completedAt: Date | null;
  declare retryOf: string | null;
  declare requestId: string | null;
  declare requestHash: string | null;
  /** Support gave up on this Failed batch: when, why, and with which key (null: the CLI). */
  declare abandonedAt: CreationOptional<Date | null>;
  declare abandonedReason: CreationOptional<string | null>;
  declare abandonedByKeyId: CreationOptional<string | null>;
  /** When the sync call that sent this Failed batch was answered its refusal (400): no case for support. */
  declare refusalAnsweredAt: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize): void {
    Batch.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        seq: { type: DataTypes.BIGINT, autoIncrement: true, allowNull: false },
        accountId: { type: DataTypes.UUID, allowNull: false, field: 'account_id' },
        workflowId: { type: DataTypes.TEXT, allowNull: false, unique: true, field: 'workflow_id' },
        idempotencyKey: { type: DataTypes.TEXT, allowNull: true, field: 'idempotency_key' },
        mode: { type: DataTypes.TEXT, allowNull: false },
        status: { type: DataTypes.TEXT, allowNull: false },
        eventCount: { type: DataTypes.INTEGER, allowNull: false, field: 'event_count' },
        request: { type: DataTypes.JSONB, allowNull: false },
        result: { type: DataTypes.JSONB, allowNull: true },
        errors: { type: DataTypes.JSONB, allowNull: true },
        warnings: { type: DataTypes.JSONB, allowNull: true },
        submittedAt: { type: DataTypes.DATE, allowNull: false, field: 'submitted_at' },
        startedAt: { type: DataTypes.DATE, allowNull: true, field: 'started_at' },
        completedAt: { type: DataTypes.DATE, allowNull: true, field: 'completed_at' },
        retryOf: { type: DataTypes.UUID, allowNull: true, field: 'retry_of' },
        requestId: { type: DataTypes.TEXT, allowNull: true, field: 'request_id' },
        requestHash: { type: DataTypes.TEXT, allowNull: true, field: 'request_hash' },
        abandonedAt: { type: DataTypes.DATE, allowNull: true, field: 'abandoned_at' },
        abandonedReason: { type: DataTypes.TEXT, allowNull: true, field: 'abandoned_reason' },
        abandonedByKeyId: { type: DataTypes.UUID, allowNull: true, field: 'abandoned_by_key_id' },
        refusalAnsweredAt: { type: DataTypes.DATE, allowNull: true, field: 'refusal_answered_at' },
      },
      { sequelize, tableName: 'batches', createdAt: 'submittedAt', updatedAt: false },
    );
  }
}
