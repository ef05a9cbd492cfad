import type { Document } from '../../../db/models';
import { canonicalDocumentType, canonicalPrivacy, type DocumentHeaders } from '../../../domain/documents';

/** SPEC.md, Resources, Document: the element of an upload's `documents` array. */
export interface DocumentBody {
  documentId: string | null;
  title: string | null;
  documentType: string | null;
  documentTypeName: string | null;
  fileName: string | null;
  fileType: string | null;
  expirationDate: string | null;
  company: string | null;
  location: string | null;
  product: string | null;
  privacy: string | null;
  status: 'Uploaded' | 'Failed';
  error: string | null;
}

/** What GET answers: the upload's element and what the service recorded about the bytes. */
export interface StoredDocumentBody extends DocumentBody {
  fileSize: number;
  sha256: string;
  createdTime: string;
}

export function presentDocument(document: Document): DocumentBody {
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
    status: 'Uploaded',
    error: null,
  };
}

export function presentStoredDocument(document: Document): StoredDocumentBody {
  return {
    ...presentDocument(document),
    fileSize: Number(document.sizeBytes),
    sha256: document.sha256.toString('hex'),
    createdTime: document.createdAt.toISOString(),
  };
}

/** A Failed element echoes what was sent (canonical spelling where the value was recognised), null where absent. */
export function presentFailed(headers: DocumentHeaders, fileName: string | null, error: string): DocumentBody {
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
    status: 'Failed',
    error,
  };
}
