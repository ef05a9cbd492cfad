/** Uploading a document: its metadata checked before the file is read, then the file, stored in one transaction. */
import { fromFile } from 'file-type';
import { UniqueConstraintError, type Sequelize } from 'sequelize';
import type { Document } from '../db/models';
import { documentLookups, insertDocument } from '../db/repositories/documents';
import {
  checkFile,
  checkMetadata,
  DocumentErrors,
  generateDocumentId,
  type Checked,
  type DocumentHeaders,
  type DocumentMetadata,
  type ReceivedFileFacts,
} from '../domain/documents';

/** The upload's metadata headers against the rules and the account's records, before the body is read. */
export const checkDocumentMetadata = (
  accountId: string,
  headers: DocumentHeaders,
): Promise<Checked<DocumentMetadata>> => checkMetadata(headers, documentLookups(accountId));

/** The part named `file` as received; `path` null when its bytes were dropped unread. */
export type ReceivedFile = Omit<ReceivedFileFacts, 'sniffed'> & { sha256: Buffer; path: string | null };

/** `failed`: the one rule the upload breaks (domain/documents.ts DocumentErrors); nothing was stored. */
export type UploadDocumentOutcome = { kind: 'failed'; error: string } | { kind: 'uploaded'; document: Document };

export async function uploadDocument(
  sequelize: Sequelize,
  input: { accountId: string; metadata: Checked<DocumentMetadata>; file: ReceivedFile | undefined },
): Promise<UploadDocumentOutcome> {
  const { metadata, file } = input;
  if (!metadata.ok) return { kind: 'failed', error: metadata.error };
  const sniffed = file?.path ? (await fromFile(file.path))?.ext : undefined;
  const fileCheck = checkFile(file && { fileName: file.fileName, size: file.size, sniffed, head: file.head });
  if (!fileCheck.ok || !file?.path)
    return { kind: 'failed', error: fileCheck.ok ? DocumentErrors.fileMissing : fileCheck.error };
  const documentId = metadata.value.documentId ?? generateDocumentId();
  try {
    const document = await insertDocument(sequelize, {
      accountId: input.accountId,
      documentId,
      metadata: metadata.value,
      fileName: file.fileName,
      fileType: fileCheck.value.fileType,
      sizeBytes: file.size,
      sha256: file.sha256,
      contentPath: file.path,
    });
    return { kind: 'uploaded', document };
  } catch (error) {
    // Another upload took the id between the check and the insert: same answer as the check's.
    if (error instanceof UniqueConstraintError) return { kind: 'failed', error: DocumentErrors.idInUse(documentId) };
    throw error;
  }
}
