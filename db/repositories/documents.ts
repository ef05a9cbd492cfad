import fs from 'node:fs';
import { Op, fn, col, where, type Sequelize } from 'sequelize';
import type { DocumentLookups, DocumentMetadata } from '../../domain/documents';
import { Document, Location, Product, TradePartner } from '../models';
import { executeOf, rowOf } from '../sql';

/**
 * Bytes per document_chunks row: what an upload holds in memory while it is written (plus the protocol
 * buffer's copy). 256 KiB keeps that small while 20 MiB is still only 80 round trips in one transaction.
 */
export const CHUNK_BYTES = 256 * 1024;

export function documentLookups(accountId: string): DocumentLookups {
  const exists = async (count: Promise<number>) => (await count) > 0;
  return {
    documentIdInUse: (documentId) => exists(Document.count({ where: { accountId, ...sameDocumentId(documentId) } })),
    companyExists: (externalId) => exists(TradePartner.count({ where: { accountId, externalId } })),
    locationExists: (externalId) => exists(Location.count({ where: { accountId, externalId } })),
    productExists: (externalId) => exists(Product.count({ where: { accountId, externalId } })),
  };
}

/** Matches the unique index documents (account_id, lower(document_id)), so the lookup uses it. */
const sameDocumentId = (documentId: string) => ({
  [Op.and]: [where(fn('lower', col('document_id')), documentId.toLowerCase())],
});

/** A new document: the columns of its row an upload gives (spread into it), its checked metadata and its file. */
export type NewDocument = Pick<Document, 'accountId' | 'documentId' | 'fileName' | 'fileType' | 'sha256'> & {
  metadata: DocumentMetadata;
  sizeBytes: number;
  /** The received bytes, spooled to a temporary file while the request streamed in. */
  contentPath: string;
};

/**
 * The row and every chunk in one transaction: a crash leaves all of it or none. A second upload with
 * the same id racing this one fails on the unique index (UniqueConstraintError) and rolls back whole.
 */
export async function insertDocument(sequelize: Sequelize, input: NewDocument): Promise<Document> {
  return sequelize.transaction(async (transaction) => {
    const { metadata, contentPath: _, ...file } = input;
    const document = await Document.create(
      { ...metadata, ...file, sizeBytes: String(input.sizeBytes) },
      { transaction },
    );
    let seq = 0;
    // One chunk read, sent and released at a time: highWaterMark is the read size.
    for await (const data of fs.createReadStream(input.contentPath, { highWaterMark: CHUNK_BYTES })) {
      await executeOf(sequelize, transaction)(
        'INSERT INTO document_chunks (account_id, document_id, seq, data) VALUES ($1, $2, $3, $4)',
        [input.accountId, document.id, seq++, data as Buffer],
      );
    }
    return document;
  });
}

export function findDocument(accountId: string, documentId: string): Promise<Document | null> {
  return Document.findOne({ where: { accountId, ...sameDocumentId(documentId) } });
}

export async function listDocuments(
  accountId: string,
  offset: number,
  limit: number,
): Promise<{ rows: Document[]; count: number }> {
  return Document.findAndCountAll({ where: { accountId }, order: [['seq', 'ASC']], offset, limit });
}

/** The bytes of a document, one chunk per query, so a download holds one chunk in memory at a time. */
export async function* documentContent(sequelize: Sequelize, document: Document): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const row = await rowOf(sequelize)<{ data: Buffer }>(
      'SELECT data FROM document_chunks WHERE account_id = $1 AND document_id = $2 AND seq = $3',
      [document.accountId, document.id, seq],
    );
    if (!row) return;
    yield row.data;
  }
}
