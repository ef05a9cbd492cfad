import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** One slice (CHUNK_BYTES, the last one shorter) of a document's bytes; seq orders them from 0. */
export class DocumentChunk extends Model<InferAttributes<DocumentChunk>, InferCreationAttributes<DocumentChunk>> {
  declare accountId: string;
  declare documentId: string;
  declare seq: number;
  declare data: Buffer;

  static initModel(sequelize: Sequelize): void {
    DocumentChunk.init(
      {
        accountId: { type: DataTypes.UUID, allowNull: false, field: 'account_id' },
        documentId: { type: DataTypes.UUID, primaryKey: true, field: 'document_id' },
        seq: { type: DataTypes.INTEGER, primaryKey: true },
        data: { type: DataTypes.BLOB, allowNull: false },
      },
      { sequelize, tableName: 'document_chunks', timestamps: false },
    );
  }
}
