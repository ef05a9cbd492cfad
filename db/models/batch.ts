import { AccountRow, DataTypes, accountKeys, nullable, required, type CreationOptional, type Sequelize } from './row';

export type BatchMode = 'sync' | 'async' | 'json' | 'retry' | 'epcis';
export type BatchStatus = 'Accepted' | 'Running' | 'Completed' | 'Failed';

export class Batch extends AccountRow<Batch> {
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
        ...accountKeys,
        workflowId: required(DataTypes.TEXT, { unique: true }),
        idempotencyKey: nullable(DataTypes.TEXT),
        mode: required(DataTypes.TEXT),
        status: required(DataTypes.TEXT),
        eventCount: required(DataTypes.INTEGER),
        request: required(DataTypes.JSONB),
        result: nullable(DataTypes.JSONB),
        errors: nullable(DataTypes.JSONB),
        warnings: nullable(DataTypes.JSONB),
        submittedAt: required(DataTypes.DATE),
        startedAt: nullable(DataTypes.DATE),
        completedAt: nullable(DataTypes.DATE),
        retryOf: nullable(DataTypes.UUID),
        requestId: nullable(DataTypes.TEXT),
        requestHash: nullable(DataTypes.TEXT),
        abandonedAt: nullable(DataTypes.DATE),
        abandonedReason: nullable(DataTypes.TEXT),
        abandonedByKeyId: nullable(DataTypes.UUID),
        refusalAnsweredAt: nullable(DataTypes.DATE),
      },
      { sequelize, tableName: 'batches', createdAt: 'submittedAt', updatedAt: false },
    );
  }
}
