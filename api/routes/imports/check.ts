import fs from 'node:fs';
import type { ValidateFunction } from 'ajv';
import type { EventPayload } from '../../../domain/events';
import type { Column } from '../../../domain/spreadsheet-columns';
import {
  headerColumns,
  locate,
  RecordAssembler,
  type AssembledRecord,
  type RowError,
} from '../../../domain/spreadsheet-rows';
import { readRows, type SpreadsheetFormat } from '../../../platform/spreadsheets';
import { ajv, fieldOf, messageOf, reportable } from '../../middleware/validate';
import { eventRuleErrors } from '../events/schema';
import { eventsBody } from '../events/schema';
import { createLocationsSchema } from '../locations/schema';
import { createProductsSchema } from '../products/schema';
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

/**
 * Reads the spooled file once, as a stream: its header against the kind's columns, its row count
 * against the limit, and each record as the JSON endpoint would check it. Nothing is kept but the
 * errors (at most MAX_ROW_ERRORS) and the record being built.
 */
export async function checkFile(filePath: string, format: SpreadsheetFormat, kind: ImportKind): Promise<FileCheck> {
  const spec = kindSpec(kind);
  const errors: RowError[] = [];
  const add = (more: RowError[]) => errors.push(...more.slice(0, MAX_ROW_ERRORS - errors.length));
  let columns: (Column | null)[] | null = null;
  let assembler: RecordAssembler | null = null;
  let rowsRead = 0;
  let records = 0;
  const known = () => columns!.filter((c): c is Column => c !== null);
  // A cell that is not of its column's type is said once: not again as the field it left missing.
  const unreadable = new Set<string>();
  const notSaidYet = (e: RowError) => !(e.code === 'Required' && unreadable.has(`${e.row}|${e.column}`));
  const input = fs.createReadStream(filePath);
  try {
    for await (const { row, cells } of readRows(input, format)) {
      if (!columns) {
        const header = headerColumns(cells, spec.columns, spec.key);
        if (!header.ok) return { outcome: 'badHeader', errors: header.errors };
        columns = header.columns;
        assembler = new RecordAssembler(columns, spec.key);
        continue;
      }
      if (++rowsRead > MAX_IMPORT_ROWS) return { outcome: 'tooManyRows' };
      const { done, errors: rowErrors } = assembler!.push(row, cells);
      add(rowErrors);
      for (const e of rowErrors) unreadable.add(`${e.row}|${e.column}`);
      if (done) {
        records++;
        add(recordErrors(kind, done, known()).filter(notSaidYet));
      }
    }
  } finally {
    input.destroy();
  }
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
  const last = assembler!.end();
  if (last) {
    records++;
    add(recordErrors(kind, last, known()).filter(notSaidYet));
  }
  if (!records)
    add([{ row: null, column: null, value: null, code: 'Required', message: 'The file has a header but no rows.' }]);
  return { outcome: 'checked', columns, rowsRead, records, errors };
}
