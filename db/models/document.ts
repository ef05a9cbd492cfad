import { AccountRow, DataTypes, accountKeys, nullable, required, type CreationOptional, type Sequelize } from './row';

export type DocumentType = 'Certification' | 'PurchaseOrder' | 'BOL' | 'Other';

export class Document extends AccountRow<Document> {
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
        ...accountKeys,
        documentId: required(DataTypes.TEXT),
        title: required(DataTypes.TEXT),
        documentType: required(DataTypes.TEXT),
        documentTypeName: nullable(DataTypes.TEXT),
        fileName: required(DataTypes.TEXT),
        fileType: required(DataTypes.TEXT),
        sizeBytes: required(DataTypes.BIGINT),
        sha256: required(DataTypes.BLOB),
        expirationDate: nullable(DataTypes.DATEONLY),
        company: nullable(DataTypes.TEXT),
        location: nullable(DataTypes.TEXT),
        product: nullable(DataTypes.TEXT),
        privacy: required(DataTypes.TEXT),
        createdAt: required(DataTypes.DATE),
      },
      { sequelize, tableName: 'documents', updatedAt: false },
    );
  }
}
