import type { Document } from '../../../db/models';
import { canonicalDocumentType, canonicalPrivacy, type DocumentHeaders } from '../../../domain/documents';

/** SPEC.md, Resources, Document: the element of an upload's `documents` (contract/documents/schema.ts uploadedDocumentSchema). */
export function presentDocument(document: Document) {
  return {
    documentId: document.documentId,
    title: document.title,
    documentType: document.documentType,
    documentTypeName: document.documentTypeName,
    fileName: document.fileName,
    fileType: document.fileType,
    expirationDate: document.expirationDate,
    company: document.company,
    location: document.location,
    product: document.product,
    privacy: document.privacy,
    status: 'Uploaded' as const,
    error: null,
  };
}

/** What GET answers: the upload's element and what the service recorded about the bytes. */
export function presentStoredDocument(document: Document) {
  return {
    ...presentDocument(document),
    fileSize: Number(document.sizeBytes),
    sha256: document.sha256.toString('hex'),
    createdTime: document.createdAt.toISOString(),
  };
}

/** A Failed element echoes what was sent (canonical spelling where the value was recognised), null where absent. */
export function presentFailed(headers: DocumentHeaders, fileName: string | null, error: string) {
  return {
    documentId: headers.id ?? null,
    title: headers.title?.trim() ?? null,
    documentType: headers.type === undefined ? null : (canonicalDocumentType(headers.type) ?? headers.type),
    documentTypeName: headers.typeName?.trim() ?? null,
    fileName,
    fileType: null,
    expirationDate: headers.expirationDate ?? null,
    company: headers.company ?? null,
    location: headers.location ?? null,
    product: headers.product ?? null,
    privacy: headers.privacy === undefined ? null : (canonicalPrivacy(headers.privacy) ?? headers.privacy),
    status: 'Failed' as const,
    error,
  };
}
