import { DocumentErrors } from '../../domain/documents';
import { problemResponse } from '../openapi/components';
import { taggedOperation } from '../openapi/operation';
import { pageBodySchema, pageQueryErrorResponse, pageQuerySchema, onePageExample } from '../paging';
import {
  DOCUMENT_CONTENT_TYPES,
  TOO_LARGE_PAGE,
  documentHeadersSchema,
  documentUploadSchema,
  storedDocumentSchema,
  uploadFailedSchema,
  uploadResponseSchema,
} from './schema';

const operation = taggedOperation('Documents');

const certificate = {
  documentId: 'CERT-2025-001',
  title: 'MSC certificate 2025',
  documentType: 'Certification',
  documentTypeName: null,
  fileName: 'msc-2025.pdf',
  fileType: 'application/pdf',
  expirationDate: '2026-06-30',
  company: 'TP-ACME',
  location: null,
  product: null,
  privacy: 'Private',
  status: 'Uploaded',
  error: null,
};

const storedCertificate = {
  ...certificate,
  fileSize: 48213,
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  createdTime: '2025-03-01T09:30:00.000Z',
};

const documentIdParam = {
  type: 'object',
  properties: {
    documentId: {
      type: 'string',
      minLength: 1,
      description: 'The document id (X-Document-Id or the generated one); any letter case is the same id.',
      example: 'CERT-2025-001',
    },
  },
};

const notFound = problemResponse(
  'The account has no document with this id (another account’s documents are not visible).',
  'unknown-document',
  { detail: "Document 'CERT-9' was not found." },
);

export const documentsOperations = [
  operation({
    method: 'post',
    path: '/Integration/Documents',
    summary: 'Upload one document',
    description:
      'multipart/form-data with one part named `file`; the metadata travels in the X-Document-* headers. ' +
      'A broken rule is answered with a 422 whose document has status Failed and `error` naming the first rule broken ' +
      '(order: title, type, type name, id, id in use, expiration date, privacy, company, location, product, file). Nothing is stored then. ' +
      'The stored document can be attached to events by its documentId at once.',
    headers: documentHeadersSchema,
    requestBody: { schema: documentUploadSchema, contentType: 'multipart/form-data' },
    responses: {
      200: {
        description: 'The document was stored (status Uploaded).',
        schema: uploadResponseSchema,
        example: { documents: [certificate] },
      },
      400: problemResponse(
        'The body cannot be read as multipart/form-data, or the client closed the connection before it was complete.',
        'unreadable-body',
        { detail: 'The request body is not valid multipart/form-data: Unexpected end of form' },
      ),
      413: {
        description:
          'The body is larger than 20 MiB and its overhead: an HTML page, as a web server in front would answer, not JSON.',
        contentType: 'text/html',
        schema: { type: 'string', description: 'An HTML page.' },
        example: TOO_LARGE_PAGE,
      },
      422: {
        description: `Nothing was stored: a header or the file broke a rule (a documents array with one Failed document), or the body had more than one file part (the plain JSON string "${DocumentErrors.oneFile}").`,
        schema: uploadFailedSchema,
        example: {
          documents: [
            {
              ...certificate,
              documentId: null,
              title: null,
              fileType: null,
              expirationDate: null,
              company: null,
              privacy: null,
              status: 'Failed',
              error: DocumentErrors.titleRequired,
            },
          ],
        },
      },
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Documents',
    summary: 'List documents',
    description: 'The account’s documents, in upload order, one page at a time.',
    query: pageQuerySchema,
    responses: {
      200: {
        description: 'One page of documents.',
        schema: pageBodySchema(storedDocumentSchema, 'One page of the account’s documents.'),
        example: onePageExample(storedCertificate),
      },
      400: pageQueryErrorResponse,
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Documents/{documentId}',
    summary: 'Read one document’s metadata',
    pathParams: documentIdParam,
    responses: {
      200: { description: 'The document, as in the list.', schema: storedDocumentSchema, example: storedCertificate },
      404: notFound,
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Documents/{documentId}/content',
    summary: 'Download one document’s file',
    description:
      'The bytes as uploaded, with the stored fileType as Content-Type, the original file name in Content-Disposition (attachment), ' +
      'the SHA-256 as ETag and X-Content-Type-Options: nosniff.',
    pathParams: documentIdParam,
    responses: {
      200: {
        description: 'The file; its Content-Type is the document’s fileType.',
        contentType: DOCUMENT_CONTENT_TYPES,
        schema: { type: 'string', format: 'binary', description: 'The file bytes.' },
      },
      404: notFound,
    },
  }),
];
