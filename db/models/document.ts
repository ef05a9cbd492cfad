import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export type DocumentType = 'Certification' | 'PurchaseOrder' | 'BOL' | 'Other';

export class Document extends Model<InferAttributes<Document>, InferCreationAttributes<Document>> {
  declare id: CreationOptional<string>;
  declare seq: CreationOptional<string>;
  declare accountId: string;
  /** The caller's id (or DOC-<32 hex>); unique per account ignoring case. */
  declare documentId: string;
  declare title: string;
  declare documentType: DocumentType;
  declare documentTypeName: string | null;
  declare fileName: string;
  declare fileType: string;
  declare sizeBytes: string;
  declare sha256: Buffer;
  /* The bytes live in document_chunks, written in the same transaction as this row. */
  /** DATEONLY: YYYY-MM-DD. */
  declare expirationDate: string | null;
  declare company: string | null;
  declare location: string | null;
  declare product: string | null;
  declare privacy: 'Public' | 'Private';
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    Document.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        seq: { type: DataTypes.BIGINT, autoIncrement: true, allowNull: false },
        accountId: { type: DataTypes.UUID, allowNull: false, field: 'account_id' },
        documentId: { type: DataTypes.TEXT, allowNull: false, field: 'document_id' },
        title: { type: DataTypes.TEXT, allowNull: false },
        documentType: { type: DataTypes.TEXT, allowNull: false, field: 'document_type' },
        documentTypeName: { type: DataTypes.TEXT, allowNull: true, field: 'document_type_name' },
        fileName: { type: DataTypes.TEXT, allowNull: false, field: 'file_name' },
        fileType: { type: DataTypes.TEXT, allowNull: false, field: 'file_type' },
        sizeBytes: { type: DataTypes.BIGINT, allowNull: false, field: 'size_bytes' },
        sha256: { type: DataTypes.BLOB, allowNull: false },
        expirationDate: { type: DataTypes.DATEONLY, allowNull: true, field: 'expiration_date' },
        company: { type: DataTypes.TEXT, allowNull: true },
        location: { type: DataTypes.TEXT, allowNull: true },
        product: { type: DataTypes.TEXT, allowNull: true },
        privacy: { type: DataTypes.TEXT, allowNull: false },
        createdAt: { type: DataTypes.DATE, allowNull: false, field: 'created_at' },
      },
      { sequelize, tableName: 'documents', updatedAt: false },
    );
  }
}
