import type { IncomingHttpHeaders } from 'node:http';
import type { DocumentHeaders } from '../../../domain/documents';

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

/** The upload's metadata headers (SPEC.md, POST /Integration/Documents); names are case-insensitive. */
export function documentHeaders(headers: IncomingHttpHeaders): DocumentHeaders {
  const read = (name: string) => headerText(headers[name]);
  return {
    title: read('x-document-title'),
    type: read('x-document-type'),
    typeName: read('x-document-type-name'),
    id: read('x-document-id'),
    expirationDate: read('x-document-expiration-date'),
    company: read('x-document-company'),
    location: read('x-document-location'),
    product: read('x-document-product'),
    privacy: read('x-document-privacy'),
  };
}
