import fs from 'node:fs';
import type { ValidateFunction } from 'ajv';
import type { EventPayload } from '../../../domain/events';
import type { Column } from '../../../domain/spreadsheet-columns';
import {
  headerColumns,
  IMPORT_CHUNK_EVENTS,
  locate,
  RecordAssembler,
  type AssembledRecord,
  type CellValue,
  type RowError,
} from '../../../domain/spreadsheet-rows';
import { InTurn } from '../../../platform/in-turn';
import { readRows, type SpreadsheetFormat } from '../../../platform/spreadsheets';
import { othersChecked, type BorderCheckDeps } from '../../../batches/border-check';
import type { AccountRef } from '../../../db/repositories/master-data';
import { withUncheckedDependents, type RecordWords } from '../../../domain/refused-events';
import { ajv, fieldOf, messageOf, reportable } from '../../../platform/json-schema';
import { eventRuleErrors, eventsBody } from '../../../domain/schemas/events';
import { createLocationsSchema } from '../../../domain/schemas/locations';
import { createProductsSchema } from '../../../domain/schemas/products';
import {
  locationCreateIssues,
  productCreateIssues,
  type LocationPayload,
  type ProductPayload,
} from '../../../domain/master-data';
import { MAX_IMPORT_ROWS } from './receive';
import { isEventKind, kindSpec, type ImportKind } from './kinds';

/** Beyond this many errors the list stops: a file that wrong is fixed from the first ones. */
export const MAX_ROW_ERRORS = 1000;

export type FileCheck =
  | { outcome: 'badHeader'; errors: RowError[] }
  | { outcome: 'tooManyRows' }
  | { outcome: 'checked'; columns: (Column | null)[]; rowsRead: number; records: number; errors: RowError[] };

const checks = new Map<string, ValidateFunction>();

/** The element schema POST /Integration/Events, /Locations or /Products validates each element with, bounds included. */
function checkOf(kind: ImportKind): ValidateFunction {
  const name = isEventKind(kind) ? 'event' : kind;
  let check = checks.get(name);
  if (!check) {
    const schema = isEventKind(kind)
      ? eventsBody.properties.Events.items
      : kind === 'locations'
        ? createLocationsSchema.properties.Locations.items
        : createProductsSchema.properties.Products.items;
    check = ajv.compile(schema);
    checks.set(name, check);
  }
  return check;
}

/** The rules beyond the schema, as the JSON endpoint applies them: event times and location ids; master data's own. */
function ruleErrors(
  kind: ImportKind,
  record: Record<string, unknown>,
): { field: string | null; code: string; message: string }[] {
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

/** What the JSON endpoint would say of one record, on the rows and columns it came from. */
function recordErrors(kind: ImportKind, assembled: AssembledRecord, columns: readonly Column[]): RowError[] {
  const record = isEventKind(kind) ? { $type: kind, ...assembled.record } : assembled.record;
  const check = checkOf(kind);
  const errors: RowError[] = [];
  if (!check(record)) {
    for (const error of reportable(check.errors ?? [])) {
      if (error.keyword === 'if') continue;
      errors.push({
        ...locate(assembled, fieldOf(error), columns),
        code: error.keyword === 'required' ? 'Required' : 'InvalidValue',
        message: messageOf(error),
      });
    }
  } else {
    for (const error of ruleErrors(kind, record))
      errors.push({ ...locate(assembled, error.field, columns), code: error.code, message: error.message });
  }
  return errors;
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
  rows: AsyncIterable<{ row: number; cells: CellValue[] }>,
  kind: ImportKind,
  columns: readonly (Column | null)[],
): AsyncGenerator<CheckedRecord> {
  const spec = kindSpec(kind);
  const known = columns.filter((c): c is Column => c !== null);
  const assembler = new RecordAssembler(columns, spec.key);
  // A cell that is not of its column's type is said once: not again as the field it left missing.
  const unreadable = new Set<string>();
  const notSaidYet = (e: RowError) => !(e.code === 'Required' && unreadable.has(`${e.row}|${e.column}`));
  let current: CheckedRecord | null = null;
  const finish = (record: CheckedRecord): CheckedRecord => {
    record.errors.push(...recordErrors(kind, record.assembled!, known).filter(notSaidYet));
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
export interface CheckedChunk {
  seq: number;
  records: AssembledRecord[];
  lastRow: number;
}

/**
 * Reads the spooled file once, as a stream: its header against the kind's columns, its row count
 * against the limit, and each record as the JSON endpoint would check it. Nothing is kept but the
 * errors (at most MAX_ROW_ERRORS), the record being built and, with `store`, the chunk being filled.
 * With `pipeline`, a file of events refused for its cells is read again and its other records checked as
 * the pipeline would check them (everyError), so one answer lists every problem of the file.
 *
 * `store` is handed each chunk of records as soon as it is full, while no error has been found, so the
 * reading stores the file's chunks as it checks them (one store at a time, in order, while the next chunk
 * is read): the caller undoes what it stored when the check ends with errors or too many rows.
 */
export async function checkFile(
  filePath: string,
  format: SpreadsheetFormat,
  kind: ImportKind,
  pipeline?: PipelineCheck,
  store?: (chunk: CheckedChunk) => Promise<void>,
): Promise<FileCheck> {
  const spec = kindSpec(kind);
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
      if (!found.ok) return { outcome: 'badHeader', errors: found.errors };
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
      for await (const checked of checkedRecords(counted(), kind, columns)) {
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
  if (tooMany) return { outcome: 'tooManyRows' };
  if (!columns)
    return {
      outcome: 'badHeader',
      errors: [
        {
          row: 1,
          column: null,
          value: null,
          code: 'Required',
          message: 'The file has no header row: download the template of the kind.',
        },
      ],
    };
  if (!records)
    add([{ row: null, column: null, value: null, code: 'Required', message: 'The file has a header but no rows.' }]);
  else if (errors.length && errors.length < MAX_ROW_ERRORS && pipeline && isEventKind(kind)) {
    const every = await everyError(pipeline, filePath, format, kind, columns);
    return { outcome: 'checked', columns, rowsRead, records, errors: inRowOrder(every).slice(0, MAX_ROW_ERRORS) };
  }
  return { outcome: 'checked', columns, rowsRead, records, errors: inRowOrder(errors) };
}

/** Who the pipeline's checks run for, and with what. */
export interface PipelineCheck {
  deps: BorderCheckDeps;
  account: AccountRef;
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
    const found = await othersChecked(pipeline.deps, pipeline.account, events, skip);
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
    for await (const checked of checkedRecords(rows, kind, columns)) {
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

/** Errors by row (those of the file as a whole first), each row's in the order found. */
const inRowOrder = (errors: readonly RowError[]): RowError[] =>
  errors
    .map((error, i) => ({ error, i }))
    .sort((a, b) => (a.error.row ?? 0) - (b.error.row ?? 0) || a.i - b.i)
    .map(({ error }) => error);
