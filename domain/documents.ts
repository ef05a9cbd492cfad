import { randomBytes } from 'node:crypto';

/** SPEC.md, Limits: 20 MB is read as 20 MiB; a file of exactly this size is accepted. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export const DOCUMENT_TYPES = ['Certification', 'PurchaseOrder', 'BOL', 'Other'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const PRIVACIES = ['Public', 'Private'] as const;
export type Privacy = (typeof PRIVACIES)[number];

export const TITLE_MAX_LENGTH = 200;
export const DOCUMENT_ID_MAX_LENGTH = 100;
const DOCUMENT_ID_PATTERN = /^[A-Za-z0-9._#-]+$/;

/** SPEC.md, Errors: the exact texts integrators match on. Do not reword. */
export const DocumentErrors = {
  titleRequired: 'Document title is required.',
  titleTooLong: 'Document title must not be longer than 200 characters.',
  type: 'Document type is required and must be Certification, PurchaseOrder, Other, or BOL.',
  typeName: 'Document type name is required when the document type is Other.',
  id: 'Document ID must be 1-100 characters and must not contain control characters.',
  idInUse: (id: string) => `Document ID '${id}' is already in use.`,
  expirationDate: 'Expiration date must be an ISO date (YYYY-MM-DD).',
  privacy: 'Privacy must be Public or Private.',
  company: (id: string) => `Company not found: ${id}`,
  location: (id: string) => `Location not found: ${id}`,
  product: (id: string) => `Product not found: ${id}`,
  fileMissing: 'Please add a document file.',
  fileType: 'The file type is not supported. Allowed types are pdf, xlsx, xls, csv, docx, doc, jpeg, and jpg.',
  oneFile: 'Send one file per request.',
} as const;

/** The X-Document-* headers as sent: undefined when absent, the raw string (possibly blank) when present. */
export interface DocumentHeaders {
  title?: string;
  type?: string;
  typeName?: string;
  id?: string;
  expirationDate?: string;
  company?: string;
  location?: string;
  product?: string;
  privacy?: string;
}

/** Metadata that passed every header rule. documentId is null when the service is to generate one. */
export interface DocumentMetadata {
  title: string;
  documentType: DocumentType;
  documentTypeName: string | null;
  documentId: string | null;
  expirationDate: string | null;
  company: string | null;
  location: string | null;
  product: string | null;
  privacy: Privacy;
}

/** The account-dependent questions of the check list; answered from PostgreSQL by the route. */
export interface DocumentLookups {
  documentIdInUse(documentId: string): Promise<boolean>;
  companyExists(externalId: string): Promise<boolean>;
  locationExists(externalId: string): Promise<boolean>;
  productExists(externalId: string): Promise<boolean>;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

const canonical = <T extends string>(allowed: readonly T[], sent: string): T | undefined =>
  allowed.find((value) => value.toLowerCase() === sent.trim().toLowerCase());

export const canonicalDocumentType = (sent: string): DocumentType | undefined => canonical(DOCUMENT_TYPES, sent);
export const canonicalPrivacy = (sent: string): Privacy | undefined => canonical(PRIVACIES, sent);

/** Characters as JSON Schema's maxLength counts them: code points, so an emoji is one, not two UTF-16 units. */
// oxlint-disable-next-line typescript/no-misused-spread -- code points are the unit meant here, as in the schemas' maxLength
const lengthOf = (text: string): number => [...text].length;

export function isValidDocumentId(id: string): boolean {
  return id.length >= 1 && id.length <= DOCUMENT_ID_MAX_LENGTH && DOCUMENT_ID_PATTERN.test(id);
}

/** YYYY-MM-DD that names a day of the proleptic Gregorian calendar (2025-02-30 and 2023-02-29 do not). */
export function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= daysInMonth;
}

/** `DOC-` and 32 hex characters (128 random bits, so a collision is not a practical concern). */
export function generateDocumentId(random: (size: number) => Buffer = randomBytes): string {
  return `DOC-${random(16).toString('hex').toUpperCase()}`;
}

/**
 * The check list for the headers. When several rules fail, the first one in this order is reported
 * (SPEC.md leaves the order open; README.md, Documents, states it):
 *   1 title, 2 type, 3 type name, 4 id, 5 id in use, 6 expiration date, 7 privacy,
 *   8 company, 9 location, 10 product, and then 11 the file (checkFile, once the body is read).
 * Cheap pure rules come first so a request with a bad header costs no query; the id-in-use lookup
 * sits right after the id's own format rule because both are about the id.
 * A header that is present is validated even when blank; only an absent one takes the default.
 */
export async function checkMetadata(
  headers: DocumentHeaders,
  lookups: DocumentLookups,
): Promise<Checked<DocumentMetadata>> {
  const fail = (error: string): Checked<DocumentMetadata> => ({ ok: false, error });

  const title = headers.title?.trim() ?? '';
  if (!title) return fail(DocumentErrors.titleRequired);
  if (lengthOf(title) > TITLE_MAX_LENGTH) return fail(DocumentErrors.titleTooLong);

  const documentType = headers.type === undefined ? undefined : canonicalDocumentType(headers.type);
  if (!documentType) return fail(DocumentErrors.type);

  const typeName = headers.typeName?.trim() || null;
  if (documentType === 'Other' && !typeName) return fail(DocumentErrors.typeName);

  const documentId = headers.id ?? null;
  if (documentId !== null && !isValidDocumentId(documentId)) return fail(DocumentErrors.id);
  if (documentId !== null && (await lookups.documentIdInUse(documentId)))
    return fail(DocumentErrors.idInUse(documentId));

  const expirationDate = headers.expirationDate ?? null;
  if (expirationDate !== null && !isIsoDate(expirationDate)) return fail(DocumentErrors.expirationDate);

  const privacy = headers.privacy === undefined ? 'Private' : canonicalPrivacy(headers.privacy);
  if (!privacy) return fail(DocumentErrors.privacy);

  const company = headers.company ?? null;
  if (company !== null && !(await lookups.companyExists(company))) return fail(DocumentErrors.company(company));
  const location = headers.location ?? null;
  if (location !== null && !(await lookups.locationExists(location))) return fail(DocumentErrors.location(location));
  const product = headers.product ?? null;
  if (product !== null && !(await lookups.productExists(product))) return fail(DocumentErrors.product(product));

  return {
    ok: true,
    value: {
      title,
      documentType,
      // SPEC.md: the custom name belongs to type Other; for the other types it would only mislead.
      documentTypeName: documentType === 'Other' ? typeName : null,
      documentId,
      expirationDate,
      company,
      location,
      product,
      privacy,
    },
  };
}

/**
 * Each allowed extension (SPEC.md, Limits): its stored content type, and what content sniffing (file-type's
 * `ext`) may report for a file with it. Undefined means "no signature found", which is right only for CSV:
 * every other allowed format has magic bytes. OOXML detection looks at zip entry names and can miss, so a
 * plain zip passes as docx/xlsx; the legacy Office formats share one container (CFB), so .doc and .xls
 * cannot be told apart by content.
 */
const EXTENSIONS: Readonly<Record<string, { type: string; sniffed: readonly (string | undefined)[] }>> = {
  pdf: { type: 'application/pdf', sniffed: ['pdf'] },
  xlsx: { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', sniffed: ['xlsx', 'zip'] },
  xls: { type: 'application/vnd.ms-excel', sniffed: ['cfb'] },
  csv: { type: 'text/csv', sniffed: [undefined] },
  docx: { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', sniffed: ['docx', 'zip'] },
  doc: { type: 'application/msword', sniffed: ['cfb'] },
  jpeg: { type: 'image/jpeg', sniffed: ['jpg'] },
  jpg: { type: 'image/jpeg', sniffed: ['jpg'] },
};
export const CONTENT_TYPES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(EXTENSIONS).map(([extension, { type }]) => [extension, type]),
);

/** Lower-case extension of a file name, '' when it has none. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

export const isAllowedExtension = (fileName: string): boolean => Object.hasOwn(CONTENT_TYPES, extensionOf(fileName));

/** What the route knows about the received file part when it decides on it. */
export interface ReceivedFileFacts {
  fileName: string;
  size: number;
  /** file-type's verdict on the content; undefined when it found no signature. */
  sniffed: string | undefined;
  /** The first bytes (at least 1 KiB when the file is that long). */
  head: Buffer;
}

/**
 * Rule 11 of the check list: no file part or an empty one, then the extension, then whether the content
 * is what the extension says. A file whose content is another format (an executable named .pdf) gets
 * the unsupported-type message too: the stored fileType is the service's verdict, never the client's.
 */
export function checkFile(file: ReceivedFileFacts | undefined): Checked<{ fileType: string }> {
  if (!file) return { ok: false, error: DocumentErrors.fileMissing };
  if (!isAllowedExtension(file.fileName)) return { ok: false, error: DocumentErrors.fileType };
  if (file.size === 0) return { ok: false, error: DocumentErrors.fileMissing };
  const extension = extensionOf(file.fileName);
  if (!EXTENSIONS[extension].sniffed.includes(file.sniffed) && !isPdfAfterPreamble(extension, file))
    return { ok: false, error: DocumentErrors.fileType };
  return { ok: true, value: { fileType: CONTENT_TYPES[extension] } };
}

/** PDF readers accept up to 1 KiB of junk before `%PDF-`; file-type only looks at offset 0. */
function isPdfAfterPreamble(extension: string, file: ReceivedFileFacts): boolean {
  return extension === 'pdf' && file.sniffed === undefined && file.head.subarray(0, 1024).includes('%PDF-');
}

/** A file name safe to put in a Content-Disposition header, with the exact name in filename*. */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
