import { problemResponse } from '../openapi/components';
import { taggedOperation, pageOperations } from '../openapi/operation';
import { pageBodySchema, pageQueryErrorResponse, pageQuerySchema } from '../paging';
import { CSV_TYPE, XLSX_TYPE } from '../../platform/spreadsheet-writing';
import {
  importHeaders,
  importResponse,
  importSummary,
  importUploadSchema,
  kindParam,
  templateQuery,
  TOO_LARGE,
} from './schema';

const operation = taggedOperation('Imports');

const IMPORT_ID = '2f1e3d4c-5b6a-4978-8a1b-2c3d4e5f6a7b';

const failedImport = {
  importId: IMPORT_ID,
  kind: 'ship',
  fileName: 'shipments-march.csv',
  format: 'csv',
  status: 'Failed',
  submittedAt: '2024-03-02T08:00:00.000Z',
  rowsRead: 2,
  eventsStored: 0,
  batches: [],
  errors: [
    {
      row: 3,
      column: 'ProductInstances.Quantity',
      value: 'ten',
      code: 'InvalidValue',
      message: 'ProductInstances.Quantity must be a number.',
    },
  ],
  statusUrl: `/Integration/Imports/${IMPORT_ID}`,
};

export const importsOperations = [
  operation({
    method: 'get',
    path: '/Integration/Templates/{kind}',
    summary: 'The spreadsheet template of an import kind',
    description:
      'A header row naming each column by the JSON field it fills (`EventTime`, `ProductInstances.LotSerial`, `DestinationLocation.Id`) and a row ' +
      'of examples. Rows with the same `Id` are one record; each adds one element to its lists (the columns `List.Field`). format=xlsx adds a ' +
      'Notes sheet: each column’s meaning, whether it is required, its type and allowed values, taken from the schemas the API validates with.',
    pathParams: kindParam,
    query: templateQuery,
    responses: {
      200: {
        description: 'The template, as an attachment.',
        contentType: [CSV_TYPE, XLSX_TYPE],
        schema: {
          type: 'string',
          format: 'binary',
          description: 'CSV text (UTF-8, header and example row) or an xlsx workbook.',
        },
      },
      400: problemResponse('format is neither csv nor xlsx.'),
      404: problemResponse('No such kind.', 'unknown-import-template'),
    },
  }),
  operation({
    method: 'post',
    path: '/Integration/Imports',
    summary: 'Import a CSV or XLSX file of events',
    description:
      'The file is read as it arrives (at most 20 MB and 100,000 rows), its header checked against the kind’s template and every row as ' +
      'POST /Integration/Events checks an event, and stored as it is read, with the import, in one transaction: as batches of at most 1,000 ' +
      'events, each all or nothing, that its workflow (`import-<importId>` in the Temporal UI) runs through the same pipeline as ' +
      'POST /Integration/Events (locations and products: the file, which the workflow stores in chunks of 1,000). ' +
      'Rows with the same Id are one event with several lines. Follow statusUrl: rows that fail the checks are listed there with nothing stored.',
    headers: importHeaders,
    requestBody: { schema: importUploadSchema, contentType: 'multipart/form-data' },
    responses: {
      202: {
        description:
          'Stored: its status, progress and errors (status Failed with the row errors when the rows were refused).',
        schema: importResponse,
        example: failedImport,
      },
      400: problemResponse(
        'The body is not multipart/form-data with a kind and a .csv or .xlsx file, the file cannot be read, or its header names a column the kind does not have (`errors` names each, with the closest column).',
        'invalid-request',
        { errors: { file: ['Send the spreadsheet as the multipart part named file.'] } },
      ),
      413: problemResponse(
        'The file is larger than 20 MB or has more than 100,000 rows.',
        'import-too-large',
        TOO_LARGE,
      ),
      422: problemResponse('The Idempotency-Key was first used with another file or kind.', 'idempotency-key-reused', {
        errors: { 'Idempotency-Key': ['The key was first used with another file or kind.'] },
      }),
      503: problemResponse(
        'The import is stored (`importId`, `statusUrl`), but Temporal could not be asked to start it now: the reconciler starts it. Nothing needs to be sent again.',
        'import-not-started',
        {
          detail:
            'The import was stored but could not be started now; it is started automatically within 120 seconds. Follow statusUrl for its result.',
        },
      ),
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Imports',
    summary: 'The account’s imports, newest first',
    query: pageQuerySchema,
    responses: {
      200: { description: 'A page of imports.', schema: pageBodySchema(importSummary, 'The imports, newest first.') },
      400: pageQueryErrorResponse,
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Imports/{id}',
    summary: 'An import: its progress, its batches and every error on its row and column',
    description:
      'Failed with the row errors when rows were refused (at upload, or by a chunk’s batch); or, when a stored file of locations or products could not be split into ' +
      'chunks (unreadable, or the step out of attempts), with the reason as the first error (`row` and `column` null, code InternalError); ' +
      'the chunks completed before the failure stay stored.',
    responses: {
      200: { description: 'The import now.', schema: importResponse, example: failedImport },
      404: problemResponse('No import with that id in this account.', 'unknown-import'),
    },
  }),
  ...pageOperations(
    'imports',
    'Sign in with an API key, download a template, upload a filled CSV or XLSX file (kind, optional key, file) and follow it: status, rows read, ' +
      'records stored, batches, and every row error in a table. The page holds no data itself; it calls /Integration/Imports.',
  ),
];
