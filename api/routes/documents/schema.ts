import type { IncomingHttpHeaders } from 'node:http';
import {
  DOCUMENT_ID_MAX_LENGTH,
  DOCUMENT_TYPES,
  PRIVACIES,
  TITLE_MAX_LENGTH,
  type DocumentHeaders,
} from '../../../domain/documents';

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
    'X-Document-Type-Name': { type: 'string', 'x-field': 'typeName', description: 'Custom type label; required when the type is Other, ignored otherwise.' },
    'X-Document-Id': {
      type: 'string',
      minLength: 1,
      maxLength: DOCUMENT_ID_MAX_LENGTH,
      pattern: '^[A-Za-z0-9._#-]+$',
      'x-field': 'id',
      description: `Caller-chosen document id, 1 to ${DOCUMENT_ID_MAX_LENGTH} characters, unique in the account ignoring case. Default: \`DOC-\` and 32 hexadecimal characters.`,
      example: 'CERT-2025-001',
    },
    'X-Document-Expiration-Date': { type: 'string', format: 'date', 'x-field': 'expirationDate', description: 'YYYY-MM-DD, a real date.', example: '2026-06-30' },
    'X-Document-Company': { type: 'string', 'x-field': 'company', description: 'Id (TradePartner.Id) of a trade partner of the account.', example: 'TP-ACME' },
    'X-Document-Location': { type: 'string', 'x-field': 'location', description: 'Id of a location of the account.', example: 'LOC-OSLO-1' },
    'X-Document-Product': { type: 'string', 'x-field': 'product', description: 'Id of a product of the account.', example: 'SKU-COD-1' },
    'X-Document-Privacy': { type: 'string', 'x-field': 'privacy', description: `${PRIVACIES.join(' or ')}, case-insensitive. Default Private.`, example: 'Private' },
  },
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

/** What a web server in front answers for a body over its limit (SPEC.md, Errors): HTML, not JSON. */
export const TOO_LARGE_PAGE = `<html>
<head><title>413 Request Entity Too Large</title></head>
<body>
<center><h1>413 Request Entity Too Large</h1></center>
<hr><center>The document file must not be larger than 20 MB.</center>
</body>
</html>
`;
