import { allRequired, requiredObject } from '../openapi/schema';
import { withLimits } from '../../domain/schemas/limits';
import { IMPORT_KINDS, MAX_IMPORT_ROWS } from '../../domain/spreadsheet-rows';

export const templateQuery = withLimits({
  type: 'object',
  properties: {
    format: { type: 'string', enum: ['csv', 'xlsx'], description: 'csv (the default) or xlsx (with a Notes sheet).' },
  },
} as const);

export const kindParam = requiredObject({
  kind: { type: 'string', enum: IMPORT_KINDS, description: 'An event type, locations or products.' },
});

export const importUploadSchema = {
  type: 'object',
  description: 'multipart/form-data: the kind and one file.',
  ...allRequired({
    kind: {
      type: 'string',
      enum: IMPORT_KINDS,
      description:
        'What each row is: an event type (locations and products are not imported yet). Also taken as the query parameter kind.',
    },
    file: {
      type: 'string',
      format: 'binary',
      description:
        'A .csv (UTF-8, with or without BOM, `,` or `;` separated) or .xlsx file (its first sheet), at most 20 MB and 100,000 rows, a header row naming the template’s columns.',
    },
  }),
} as const;

const rowError = requiredObject({
  row: {
    type: ['integer', 'null'],
    minimum: 1,
    description: 'The spreadsheet row (the header is row 1); null for the file as a whole.',
  },
  column: { type: ['string', 'null'], description: 'The column (its header) the error is about.' },
  value: { type: ['string', 'null'], description: 'The cell as read.' },
  code: {
    type: 'string',
    description:
      'Required, InvalidValue, InsufficientInventory, DuplicateEventId, UnknownProduct, UnknownLocation, UnknownColumn, …',
  },
  message: { type: 'string' },
});

const importCore = {
  importId: { type: 'string', format: 'uuid' },
  kind: { type: 'string', enum: IMPORT_KINDS },
  fileName: { type: 'string' },
  format: { enum: ['csv', 'xlsx'] },
  status: {
    enum: ['Accepted', 'Running', 'Completed', 'Failed'],
    description:
      'Accepted: stored, its workflow about to read it. Running: its batches are under way. Completed: every batch stored its events. ' +
      'Failed: the rows were refused (nothing stored), or a batch was (nothing of that batch stored; the others are).',
  },
  submittedAt: { type: 'string', format: 'date-time' },
  rowsRead: { type: 'integer', minimum: 0, description: 'Data rows read (the header and empty rows aside).' },
  eventsStored: {
    type: 'integer',
    minimum: 0,
    description: 'Events (or locations, products) of the Completed chunks.',
  },
  statusUrl: { type: 'string' },
} as const;

/** An import as answered: importCore's properties and `more`, all of them required. */
const importWith = <const P extends object>(more: P) => ({
  type: 'object' as const,
  ...allRequired({ ...importCore, ...more }),
});

export const importResponse = importWith({
  batches: {
    type: 'array',
    description: 'One per chunk of at most 1,000 records, in file order; each is all or nothing.',
    items: requiredObject({
      batchId: {
        type: ['string', 'null'],
        format: 'uuid',
        description:
          'Also at GET /Integration/Batches/{id}; null for a chunk of locations or products (stored in one transaction, without a batch).',
      },
      status: { enum: ['Accepted', 'Running', 'Completed', 'Failed'] },
      events: { type: 'integer', minimum: 1 },
      firstRow: { type: 'integer', minimum: 2 },
      lastRow: { type: 'integer', minimum: 2 },
    }),
  },
  errors: {
    type: 'array',
    items: rowError,
    description: 'Every error, on its row, column and cell value (at most 1,000 from the row checks).',
  },
});

export const importSummary = importWith({
  batchCount: { type: 'integer', minimum: 0 },
  errorCount: { type: 'integer', minimum: 0 },
});

export const importHeaders = {
  type: 'object',
  properties: {
    'Idempotency-Key': {
      type: 'string',
      description:
        'Optional, 1 to 200 visible ASCII characters. The same key with the same file and kind answers the first import; with another, a 422.',
    },
  },
} as const;

/** At most this much file per import; the 413 names it. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

/** The 413 of a file past either limit, as its `detail`, `maxBytes` and `maxRows`. */
export const TOO_LARGE = {
  detail: `An import takes at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB and ${MAX_IMPORT_ROWS.toLocaleString('en')} rows per file; split the file.`,
  maxBytes: MAX_IMPORT_BYTES,
  maxRows: MAX_IMPORT_ROWS,
};
