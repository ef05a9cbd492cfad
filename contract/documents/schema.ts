import { allRequired, closed } from '../openapi/schema';
import type { IncomingHttpHeaders } from 'node:http';
import {
  CONTENT_TYPES,
  DOCUMENT_ID_MAX_LENGTH,
  DOCUMENT_TYPES,
  MAX_FILE_BYTES,
  PRIVACIES,
  TITLE_MAX_LENGTH,
  DocumentErrors,
  type DocumentHeaders,
} from '../../domain/documents';
import { nullableText } from '../../domain/schemas/text';

/**
 * The upload's metadata headers (SPEC.md, POST /Integration/Documents). Not validated by ajv: the
 * rules, their order and their exact messages are domain/documents.ts's checkMetadata, and a header
 * that breaks one is answered with a 422 Failed document, not a 400. `x-field` names the
 * DocumentHeaders key each header is read into (documentHeaders below), so this list is the one
 * place the header names are written.
 */
export const documentHeadersSchema = {
  type: 'object',
  required: ['X-Document-Title', 'X-Document-Type'],
  properties: {
    'X-Document-Title': {
      type: 'string',
      maxLength: TITLE_MAX_LENGTH,
      'x-field': 'title',
      description: `Document title, at most ${TITLE_MAX_LENGTH} characters; leading and trailing spaces are trimmed. UTF-8 is understood.`,
      example: 'MSC certificate 2025',
    },
    'X-Document-Type': {
      type: 'string',
      'x-field': 'type',
      description: `${DOCUMENT_TYPES.join(', ')}; case-insensitive.`,
      example: 'Certification',
    },
    'X-Document-Type-Name': {
      type: 'string',
      'x-field': 'typeName',
      description: 'Custom type label; required when the type is Other, ignored otherwise.',
    },
    'X-Document-Id': {
      type: 'string',
      minLength: 1,
      maxLength: DOCUMENT_ID_MAX_LENGTH,
      pattern: '^[A-Za-z0-9._#-]+$',
      'x-field': 'id',
      description: `Caller-chosen document id, 1 to ${DOCUMENT_ID_MAX_LENGTH} characters, unique in the account ignoring case. Default: \`DOC-\` and 32 hexadecimal characters.`,
      example: 'CERT-2025-001',
    },
    'X-Document-Expiration-Date': {
      type: 'string',
      format: 'date',
      'x-field': 'expirationDate',
      description: 'YYYY-MM-DD, a real date.',
      example: '2026-06-30',
    },
    'X-Document-Company': {
      type: 'string',
      'x-field': 'company',
      description: 'Id (TradePartner.Id) of a trade partner of the account.',
      example: 'TP-ACME',
    },
    'X-Document-Location': {
      type: 'string',
      'x-field': 'location',
      description: 'Id of a location of the account.',
      example: 'LOC-OSLO-1',
    },
    'X-Document-Product': {
      type: 'string',
      'x-field': 'product',
      description: 'Id of a product of the account.',
      example: 'SKU-COD-1',
    },
    'X-Document-Privacy': {
      type: 'string',
      'x-field': 'privacy',
      description: `${PRIVACIES.join(' or ')}, case-insensitive. Default Private.`,
      example: 'Private',
    },
  },
} as const;

/** The multipart/form-data body: one part named `file`; other parts are ignored. */
export const documentUploadSchema = {
  type: 'object',
  description: 'multipart/form-data with exactly one file part.',
  ...allRequired({
    file: {
      type: 'string',
      format: 'binary',
      description:
        `The document, at most ${MAX_FILE_BYTES / 1024 / 1024} MiB and not empty, with one of the extensions ${Object.keys(CONTENT_TYPES).join(', ')} (any letter case). ` +
        'The content must match the extension; the stored content type is the service’s verdict, returned as fileType.',
    },
  }),
} as const;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Node hands header values over as latin1; an integrator sending a UTF-8 title ("Año 2025") means
 * UTF-8, so bytes that form valid UTF-8 are read as such and anything else is kept as latin1.
 */
function headerText(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(', ') : value;
  try {
    return utf8.decode(Buffer.from(text, 'latin1'));
  } catch {
    return text;
  }
}

/** The upload's metadata headers, as documentHeadersSchema names them; names are case-insensitive. */
export function documentHeaders(headers: IncomingHttpHeaders): DocumentHeaders {
  const read: DocumentHeaders = {};
  for (const [name, property] of Object.entries(documentHeadersSchema.properties)) {
    read[property['x-field']] = headerText(headers[name.toLowerCase()]);
  }
  return read;
}

/* ---- Response bodies: what presenter.ts and the route produce. ---- */

/** What a web server in front answers for a body over its limit (SPEC.md, Errors): HTML, not JSON. */
export const TOO_LARGE_PAGE = `<html>
<head><title>413 Request Entity Too Large</title></head>
<body>
<center><h1>413 Request Entity Too Large</h1></center>
<hr><center>The document file must not be larger than 20 MB.</center>
</body>
</html>
`;

/** Content types GET .../content can answer with: the stored fileType of each allowed extension. */
export const DOCUMENT_CONTENT_TYPES = [...new Set(Object.values(CONTENT_TYPES))];

/** SPEC.md, Resources, Document: an element of a successful upload's `documents`. */
export const uploadedDocumentSchema = {
  type: 'object',
  description: 'A stored document.',
  ...closed({
    documentId: {
      type: 'string',
      description: 'The X-Document-Id sent, or the generated `DOC-` and 32 hexadecimal characters. Events refer to it.',
      example: 'CERT-2025-001',
    },
    title: { type: 'string', description: 'The title, trimmed.' },
    documentType: {
      type: 'string',
      enum: DOCUMENT_TYPES,
      description: 'The type, in this spelling whatever the case sent.',
    },
    documentTypeName: nullableText('The custom type name for type Other; null for the other types.'),
    fileName: { type: 'string', description: 'File name of the uploaded part.', example: 'msc-2025.pdf' },
    fileType: {
      type: 'string',
      enum: DOCUMENT_CONTENT_TYPES,
      description: 'Content type the service determined from extension and content.',
      example: 'application/pdf',
    },
    expirationDate: {
      type: ['string', 'null'],
      format: 'date',
      description: 'YYYY-MM-DD; null when not sent.',
      example: '2026-06-30',
    },
    company: nullableText('Trade partner id; null when not sent.'),
    location: nullableText('Location id; null when not sent.'),
    product: nullableText('Product id; null when not sent.'),
    privacy: { type: 'string', enum: PRIVACIES, description: 'Public or Private (the default).' },
    status: { type: 'string', enum: ['Uploaded'] },
    error: { type: 'null', description: 'Always null for a stored document.' },
  }),
} as const;

/** GET /Integration/Documents and /{documentId}: the upload's element and what was recorded about the bytes. */
export const storedDocumentSchema = {
  ...uploadedDocumentSchema,
  description: 'A stored document and what the service recorded about its file.',
  ...allRequired({
    ...uploadedDocumentSchema.properties,
    fileSize: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_FILE_BYTES,
      description: 'File size in bytes.',
      example: 48213,
    },
    sha256: {
      type: 'string',
      pattern: '^[0-9a-f]{64}$',
      description: 'SHA-256 of the file, lower-case hex; also the ETag of its content.',
    },
    createdTime: { type: 'string', format: 'date-time', description: 'When the document was uploaded.' },
  }),
} as const;

/** A Failed element: echoes what was sent (canonical spelling where recognised), null where absent. */
export const failedDocumentSchema = {
  type: 'object',
  description: 'The document that was not stored: what was sent, and why it failed.',
  required: uploadedDocumentSchema.required,
  properties: {
    documentId: nullableText('X-Document-Id as sent; null when absent.'),
    title: nullableText('X-Document-Title, trimmed; null when absent.'),
    documentType: nullableText(
      'X-Document-Type: the canonical spelling when recognised, else as sent; null when absent.',
    ),
    documentTypeName: nullableText('X-Document-Type-Name, trimmed; null when absent.'),
    fileName: nullableText('File name of the `file` part; null when there was none.'),
    fileType: { type: 'null', description: 'Always null: nothing was stored.' },
    expirationDate: nullableText('X-Document-Expiration-Date as sent; null when absent.'),
    company: nullableText('X-Document-Company as sent; null when absent.'),
    location: nullableText('X-Document-Location as sent; null when absent.'),
    product: nullableText('X-Document-Product as sent; null when absent.'),
    privacy: nullableText(
      'X-Document-Privacy: the canonical spelling when recognised, else as sent; null when absent.',
    ),
    status: { type: 'string', enum: ['Failed'] },
    error: {
      type: 'string',
      description:
        'The first rule the request broke, in its fixed text (the document error texts listed in this document).',
      example: DocumentErrors.titleRequired,
    },
  },
  additionalProperties: false,
} as const;

export const uploadResponseSchema = {
  type: 'object',
  description: 'The upload’s outcome: one document.',
  ...closed({ documents: { type: 'array', minItems: 1, maxItems: 1, items: uploadedDocumentSchema } }),
} as const;

export const uploadFailedSchema = {
  oneOf: [
    {
      type: 'object',
      description: 'A metadata or file rule failed: the document, with status Failed and the reason in `error`.',
      ...closed({ documents: { type: 'array', minItems: 1, maxItems: 1, items: failedDocumentSchema } }),
    },
    {
      type: 'string',
      enum: [DocumentErrors.oneFile],
      description: 'More than one file part: a plain JSON string, not a documents array.',
    },
  ],
} as const;
