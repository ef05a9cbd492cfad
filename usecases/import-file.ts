/**
 * Importing a spreadsheet: its rows checked as the JSON endpoints (and the pipeline) would check them, the
 * import stored in one transaction, its workflow started. The kinds' columns and the pipeline's checks
 * (ImportRules) and the start are ports. Typed outcomes, no HTTP.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { ValidateFunction } from 'ajv';
import type { Sequelize } from 'sequelize';
import type { AccountRef } from '../db/repositories/master-data';
import {
  findImport,
  insertImport,
  type ImportContent,
  type ImportRow,
  type ImportStore,
} from '../db/repositories/imports';
import type { BatchError } from '../domain/batch-errors';
import { EVENT_TYPE_NAMES, type EventPayload, type EventTypeName } from '../domain/events';
import { sha256Hex } from '../domain/hashing';
import {
  locationCreateIssues,
  productCreateIssues,
  type LocationPayload,
  type ProductPayload,
} from '../domain/master-data';
import { withUncheckedDependents, type RecordWords } from '../domain/refused-events';
import { eventRuleErrors, eventsBody } from '../domain/schemas/events';
import { createLocationsSchema } from '../domain/schemas/locations';
import { createProductsSchema } from '../domain/schemas/products';
import type { Column } from '../domain/spreadsheet-columns';
import {
  headerColumns,
  IMPORT_CHUNK_EVENTS,
  locate,
  MAX_IMPORT_ROWS,
  RecordAssembler,
  type AssembledRecord,
  type CellValue,
  type ImportKind,
  type RowError,
} from '../domain/spreadsheet-rows';
import { InTurn } from '../platform/in-turn';
import { ajv, fieldOf, messageOf, reportable } from '../platform/json-schema';
import { readRows, UnreadableSpreadsheet, type SpreadsheetFormat } from '../platform/spreadsheets';

export const isEventKind = (kind: ImportKind): kind is EventTypeName =>
  (EVENT_TYPE_NAMES as readonly string[]).includes(kind);

/** Beyond this many errors the list stops: a file that wrong is fixed from the first ones. */
const MAX_ROW_ERRORS = 1000;

/** What the rows are checked with that the API and the pipeline own. */
export interface ImportRules {
  /** The kind's columns, and the column whose value identifies a record (rows with the same value are one record). */
  spec(kind: ImportKind): { columns: Column[]; key: string };
  /** What the pipeline's checks find in the events outside `skip` (null: they could not be run). */
  othersChecked(account: AccountRef, events: unknown[], skip: Set<number>): Promise<BatchError[] | null>;
}

export interface ImportServices {
  sequelize: Sequelize;
  rules: ImportRules;
  /** Starts the stored import's workflow, or attaches to the one running; throws when it could not. */
  start(row: ImportRow): Promise<void>;
}

export interface ImportFileInput {
  account: AccountRef;
  kind: ImportKind;
  format: SpreadsheetFormat;
  /** The spooled upload; its SHA-256 in hex. */
  file: { fileName: string; size: number; sha256: string; path: string };
  idempotencyKey: string | null;
  requestId: string | null;
}

/** `accepted` includes an import refused for its rows: it is stored with their errors (row.refused). */
export type ImportFileOutcome =
  | { kind: 'unreadable'; message: string }
  | { kind: 'tooManyRows' }
  | { kind: 'badHeader'; errors: RowError[] }
  | { kind: 'keyReused'; existing: ImportRow }
  | { kind: 'notStarted'; row: ImportRow; error: unknown }
  | { kind: 'accepted'; row: ImportRow };

/** A file refused as a whole, thrown out of the upload's transaction: nothing of it is stored. */
class FileRefused extends Error {
  constructor(readonly outcome: Extract<ImportFileOutcome, { kind: 'tooManyRows' | 'badHeader' }>) {
    super(outcome.kind);
  }
}

/**
 * Stores the import, reading the upload once in its transaction: while no row has failed, each chunk of
 * events is stored as a batch its workflow starts; locations and products are stored later from the file
 * the upload stores. A second upload with an import's Idempotency-Key answers as that import.
 */
export async function importFile(services: ImportServices, input: ImportFileInput): Promise<ImportFileOutcome> {
  const { sequelize } = services;
  const { account, kind, format, file, idempotencyKey } = input;
  const requestHash = sha256Hex(`${kind}\n${file.sha256}`);
  const earlier = () => (idempotencyKey ? findImport(sequelize, { accountId: account.id, idempotencyKey }) : null);
  const existing = await earlier();
  if (existing) return replay(services, existing, requestHash);
  let row: ImportRow;
  try {
    row = await insertImport(
      sequelize,
      {
        id: randomUUID(),
        accountId: account.id,
        kind,
        format,
        fileName: file.fileName,
        sizeBytes: file.size,
        idempotencyKey,
        requestHash,
        requestId: input.requestId,
      },
      (store) => readUpload({ rules: services.rules, account }, input, store),
    );
  } catch (error) {
    if (error instanceof FileRefused) return error.outcome;
    if (error instanceof UnreadableSpreadsheet) return { kind: 'unreadable', message: error.message };
    // Two first uploads with one key: the unique key decides, the other answers as a replay.
    const first = await earlier();
    if (!first) throw error;
    return replay(services, first, requestHash);
  }
  return started(services, row);
}

const replay = (services: ImportServices, existing: ImportRow, requestHash: string) =>
  existing.request_hash === requestHash ? started(services, existing) : { kind: 'keyReused' as const, existing };

const started = (services: ImportServices, row: ImportRow): Promise<ImportFileOutcome> =>
  (row.refused ? Promise.resolve() : services.start(row)).then(
    () => ({ kind: 'accepted', row }),
    (error: unknown) => ({ kind: 'notStarted', row, error }),
  );

/** The file's content as the upload's transaction stores it; a file refused as a whole throws. */
async function readUpload(pipeline: PipelineCheck, input: ImportFileInput, store: ImportStore): Promise<ImportContent> {
  const { kind, format, file } = input;
  const storeChunk = ({ seq, records, lastRow }: CheckedChunk) =>
    store.storeChunk({
      seq,
      firstRow: records[0].row,
      lastRow,
      events: records.map((r) => ({ $type: kind, ...r.record })),
      provenance: records.map((r) => ({ row: r.row, lists: r.lists })),
    });
  const check = await checkFile(file.path, format, kind, pipeline, isEventKind(kind) ? storeChunk : undefined);
  if (!check.errors && !isEventKind(kind)) await store.storeFile(file.path);
  return check;
}

type PipelineCheck = { rules: ImportRules; account: AccountRef };

/** The element schema POST /Integration/Events, /Locations or /Products validates each element with, bounds included (ajv compiles each once). */
const checkOf = (kind: ImportKind): ValidateFunction =>
  ajv.compile(
    isEventKind(kind)
      ? eventsBody.properties.Events.items
      : kind === 'locations'
        ? createLocationsSchema.properties.Locations.items
        : createProductsSchema.properties.Products.items,
  );

/** The schema's errors; else the rules beyond it, as the JSON endpoint applies them: event times and location ids, master data's own. */
function recordIssues(
  kind: ImportKind,
  record: Record<string, unknown>,
): { field: string | null; code: string; message: string }[] {
  const check = checkOf(kind);
  if (!check(record))
    return reportable(check.errors ?? [])
      .filter((error) => error.keyword !== 'if')
      .map((error) => ({
        field: fieldOf(error),
        code: error.keyword === 'required' ? 'Required' : 'InvalidValue',
        message: messageOf(error),
      }));
  if (isEventKind(kind)) return eventRuleErrors([record as unknown as EventPayload]);
  const issues =
    kind === 'locations'
      ? locationCreateIssues([record as unknown as LocationPayload])
      : productCreateIssues([record as unknown as ProductPayload]);
  return issues.map((i) => ({
    field: i.field.replace(/^(Locations|Products)\[0\]\.?/, '').replace(/^id$/, 'Id'),
    code: 'InvalidValue',
    message: i.message,
  }));
}

/** A record as the upload's checks leave it: the errors of its rows and of the record itself. */
interface CheckedRecord {
  /** Null for a row that belongs to no record (its key is missing). */
  assembled: AssembledRecord | null;
  /** The record's last row. */
  lastRow: number;
  errors: RowError[];
}

/**
 * The file's data rows (after the header) as records, each with what the JSON endpoint would say of it,
 * on its rows and columns. At most one record is held.
 */
async function* checkedRecords(
  rules: ImportRules,
  rows: AsyncIterable<{ row: number; cells: CellValue[] }>,
  kind: ImportKind,
  columns: readonly (Column | null)[],
): AsyncGenerator<CheckedRecord> {
  const spec = rules.spec(kind);
  const known = columns.filter((c): c is Column => c !== null);
  const assembler = new RecordAssembler(columns, spec.key);
  // A cell that is not of its column's type is said once: not again as the field it left missing.
  const unreadable = new Set<string>();
  const notSaidYet = (e: RowError) => !(e.code === 'Required' && unreadable.has(`${e.row}|${e.column}`));
  let current: (CheckedRecord & { assembled: AssembledRecord }) | null = null;
  // What the JSON endpoint would say of the record, on the rows and columns it came from.
  const finish = (record: CheckedRecord & { assembled: AssembledRecord }): CheckedRecord => {
    const { assembled } = record;
    const issues = recordIssues(kind, isEventKind(kind) ? { $type: kind, ...assembled.record } : assembled.record);
    const placed = issues.map(({ field, code, message }) => ({ ...locate(assembled, field, known), code, message }));
    record.errors.push(...placed.filter(notSaidYet));
    return record;
  };
  for await (const { row, cells } of rows) {
    const { done, into, errors } = assembler.push(row, cells);
    for (const e of errors) unreadable.add(`${e.row}|${e.column}`);
    if (done) {
      yield finish(current!);
      current = null;
    }
    if (!into) {
      // A row without its key: no record to hang its errors on.
      yield { assembled: null, lastRow: row, errors };
      continue;
    }
    current ??= { assembled: into, lastRow: row, errors: [] };
    current.lastRow = row;
    current.errors.push(...errors);
  }
  if (assembler.end() && current) yield finish(current);
}

/** A chunk of at most IMPORT_CHUNK_EVENTS records that passed the checks, in file order, and its last row. */
interface CheckedChunk {
  seq: number;
  records: AssembledRecord[];
  lastRow: number;
}

/**
 * Reads the spooled file once, as a stream: its header against the kind's columns, its row count
 * against the limit, and each record as the JSON endpoint would check it. Nothing is kept but the
 * errors (at most MAX_ROW_ERRORS), the record being built and, with `store`, the chunk being filled.
 * A file of events refused for its cells is read again and its other records checked as the pipeline
 * would check them (everyError), so one answer lists every problem of the file. A file refused as a whole
 * (its header, too many rows) throws FileRefused.
 *
 * `store` is handed each chunk of records as soon as it is full, while no error has been found, so the
 * reading stores the file's chunks as it checks them (one store at a time, in order, while the next chunk
 * is read): the caller undoes what it stored when the check ends with errors or too many rows.
 */
async function checkFile(
  filePath: string,
  format: SpreadsheetFormat,
  kind: ImportKind,
  pipeline: PipelineCheck,
  store?: (chunk: CheckedChunk) => Promise<void>,
): Promise<ImportContent> {
  const spec = pipeline.rules.spec(kind);
  const errors: RowError[] = [];
  const add = (more: RowError[]) => errors.push(...more.slice(0, MAX_ROW_ERRORS - errors.length));
  let columns: (Column | null)[] | null = null;
  let rowsRead = 0;
  let records = 0;
  let tooMany = false;
  let chunk: AssembledRecord[] = [];
  let seq = 0;
  const storing = new InTurn();
  const flush = async (lastRow: number) => {
    if (!store || !chunk.length || errors.length) return;
    const full = { seq: seq++, records: chunk, lastRow };
    chunk = [];
    await storing.next(() => store(full));
  };
  let lastRow = 1;
  const input = fs.createReadStream(filePath);
  const rows = readRows(input, format);
  try {
    const header = await rows.next();
    if (!header.done) {
      const found = headerColumns(header.value.cells, spec.columns, spec.key);
      if (!found.ok) throw new FileRefused({ kind: 'badHeader', errors: found.errors });
      columns = found.columns;
      const counted = async function* () {
        for await (const row of rows) {
          if (++rowsRead > MAX_IMPORT_ROWS) {
            tooMany = true;
            return;
          }
          yield row;
        }
      };
      for await (const checked of checkedRecords(pipeline.rules, counted(), kind, columns)) {
        if (checked.assembled) records++;
        add(checked.errors);
        lastRow = checked.lastRow;
        if (errors.length) chunk = [];
        else if (store && checked.assembled) {
          chunk.push(checked.assembled);
          if (chunk.length === IMPORT_CHUNK_EVENTS) await flush(lastRow);
        }
      }
      if (!tooMany) await flush(lastRow);
    }
  } finally {
    input.destroy();
    await rows.return(undefined);
    // Never a store still running once the check is over: its caller decides at once what stays stored.
    await storing.settled();
  }
  await storing.finished();
  if (tooMany) throw new FileRefused({ kind: 'tooManyRows' });
  if (!columns) {
    const message = 'The file has no header row: download the template of the kind.';
    throw new FileRefused({
      kind: 'badHeader',
      errors: [{ row: 1, column: null, value: null, code: 'Required', message }],
    });
  }
  if (!records)
    add([{ row: null, column: null, value: null, code: 'Required', message: 'The file has a header but no rows.' }]);
  else if (errors.length && errors.length < MAX_ROW_ERRORS && isEventKind(kind)) {
    const every = await everyError(pipeline, filePath, format, kind, columns);
    return { columns, rowsRead, errors: inRowOrder(every).slice(0, MAX_ROW_ERRORS) };
  }
  return { columns, rowsRead, errors: errors.length ? inRowOrder(errors) : null };
}

const rowWords = (records: readonly AssembledRecord[]): RecordWords => ({
  listed: (indexes) => {
    const rows = indexes.map((index) => records[index].row);
    return rows.length === 1
      ? `Row ${rows[0]} names`
      : `Rows ${rows.slice(0, -1).join(', ')} and ${rows[rows.length - 1]} name`;
  },
  one: 'row',
});

/**
 * A refused file's every error: what the upload's checks say of its rows (read again), and what the
 * pipeline would refuse in its other records once those are fixed. Each chunk (the batch it would be)
 * goes through the pipeline's checks (batches/border-check.ts) without the records refused here, and
 * its errors are placed on their rows. A check that a refused record could explain is left out, and that
 * record's first error says which rows were not fully checked (domain/refused-events.ts). Only a
 * refusal pays for this second reading; at most a chunk of records is held.
 */
async function everyError(
  pipeline: PipelineCheck,
  filePath: string,
  format: SpreadsheetFormat,
  kind: ImportKind,
  columns: (Column | null)[],
): Promise<RowError[]> {
  const known = columns.filter((c): c is Column => c !== null);
  const errors: RowError[] = [];
  let chunk: CheckedRecord[] = [];
  const checkChunk = async () => {
    const records = chunk.map((c) => c.assembled!);
    const refused = chunk.flatMap((c, index) => c.errors.map((error) => ({ index, error })));
    chunk = [];
    const events = records.map((r) => ({ $type: kind, ...r.record }));
    const skip = new Set(refused.map((r) => r.index));
    const found = await pipeline.rules.othersChecked(pipeline.account, events, skip);
    const listed = withUncheckedDependents(
      events,
      refused.map(({ index, error }) => ({
        index,
        eventId: typeof records[index].record.Id === 'string' ? records[index].record.Id : null,
        code: 'InvalidValue' as const,
        field: null,
        message: error.message,
      })),
      found ?? [],
      rowWords(records),
    );
    // One for one, in order: a note on a refused record lands on its first row error.
    listed.refused.forEach(({ message }, i) => errors.push({ ...refused[i].error, message }));
    for (const error of listed.checked) {
      const place =
        error.index === null
          ? { row: null, column: null, value: null }
          : locate(records[error.index], error.field, known);
      errors.push({ ...place, code: error.code, message: error.message });
    }
  };
  const input = fs.createReadStream(filePath);
  const rows = readRows(input, format);
  try {
    await rows.next(); // the header, checked already
    for await (const checked of checkedRecords(pipeline.rules, rows, kind, columns)) {
      if (!checked.assembled) errors.push(...checked.errors);
      else chunk.push(checked);
      if (chunk.length === IMPORT_CHUNK_EVENTS) await checkChunk();
      if (errors.length >= MAX_ROW_ERRORS) return errors;
    }
    if (chunk.length) await checkChunk();
  } finally {
    input.destroy();
    await rows.return(undefined);
  }
  return errors;
}

/** Errors by row (those of the file as a whole first), each row's in the order found: sort is stable. */
const inRowOrder = (errors: readonly RowError[]): RowError[] => [...errors].sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
