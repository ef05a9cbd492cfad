/**
 * Spreadsheet rows to JSON records (events, locations, products) by columns named after the JSON
 * fields (spreadsheet-columns.ts). The rows of one record are consecutive and share its key (`Id`); each
 * adds one element to the lists it has cells for. Every record keeps the row of each of its values, so
 * an error the API or the pipeline reports on a JSON path is shown on the row and column it came from.
 */
import { EVENT_TYPE_NAMES } from './events';
import { editDistance } from './schemas/unknown-fields';
import type { Column } from './spreadsheet-columns';
import { withoutMillis } from './time';

/** What a spreadsheet can hold: events of one type, locations or products. */
export const IMPORT_KINDS = [...EVENT_TYPE_NAMES, 'locations', 'products'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** Data rows (the header aside) per import. */
export const MAX_IMPORT_ROWS = 100_000;

/**
 * At most this many records in an import's chunk (the batch endpoint's own bound, MAX_EVENTS): each
 * chunk of events is one batch, all or nothing, and the upload's checks check a refused file's events
 * chunk by chunk as the pipeline would.
 */
export const IMPORT_CHUNK_EVENTS = 1000;

export type CellValue = string | number | boolean | Date | null;

/** One error of an import, where a person finds it in the file. */
export interface RowError {
  /** The spreadsheet row (the header is row 1); null for the file as a whole. */
  row: number | null;
  column: string | null;
  /** The cell as read, as text. */
  value: string | null;
  code: string;
  message: string;
}

export interface AssembledRecord {
  record: Record<string, unknown>;
  /** The record's first row. */
  row: number;
  /** For each list, the row of each of its elements in order. */
  lists: Record<string, number[]>;
}

/** The known name closest to `name`, when it is close enough to be the one meant. */
export function didYouMean(name: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase(), false);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : null;
}

/**
 * An Excel date cell holds a wall time without a zone (exceljs gives it as that time in UTC): written
 * back as `YYYY-MM-DDTHH:mm:ss`, which the API reads in the event's EventTimeZone.
 */
export const cellText = (value: CellValue): string | null =>
  value === null ? null : value instanceof Date ? withoutMillis(value) : String(value);

/** The header's columns in order, or the problems with it: unknown names (with the closest known one), repeats, a missing key. */
export function headerColumns(
  header: readonly CellValue[],
  columns: readonly Column[],
  key: string,
): { ok: true; columns: (Column | null)[] } | { ok: false; errors: RowError[] } {
  const byName = new Map(columns.map((c) => [c.name, c]));
  const errors: RowError[] = [];
  const error = (column: string, value: string | null, code: string, message: string) =>
    errors.push({ row: 1, column, value, code, message });
  const seen = new Set<string>();
  const ordered: (Column | null)[] = [];
  header.forEach((cell, index) => {
    const name = cellText(cell)?.trim() ?? '';
    if (!name) {
      ordered.push(null);
      return;
    }
    const column = byName.get(name);
    if (!column) {
      const suggestion = didYouMean(name, [...byName.keys()]);
      error(
        name,
        name,
        'UnknownColumn',
        `Column ${index + 1}, ${name}, is not a field of this kind.${suggestion ? ` Did you mean ${suggestion}?` : ''}`,
      );
    } else if (seen.has(name)) error(name, name, 'DuplicateColumn', `Column ${name} appears twice.`);
    seen.add(name);
    ordered.push(column ?? null);
  });
  if (!seen.has(key))
    error(key, null, 'Required', `The header has no ${key} column: each row names the record it belongs to.`);
  return errors.length ? { ok: false, errors } : { ok: true, columns: ordered };
}

const setPath = (target: Record<string, unknown>, path: readonly string[], value: unknown): void => {
  let node = target;
  for (const name of path.slice(0, -1)) node = (node[name] ??= {}) as Record<string, unknown>;
  node[path[path.length - 1]] = value;
};

const getPath = (target: Record<string, unknown>, path: readonly string[]): unknown => {
  let node: unknown = target;
  for (const name of path)
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[name] : undefined;
  return node;
};

/** A cell as the column's JSON type, or why it cannot be. Numbers in text may use a decimal comma. */
function typed(column: Column, value: CellValue): { ok: true; value: unknown } | { ok: false; message: string } {
  if (column.type === 'string') return { ok: true, value: typeof value === 'string' ? value : cellText(value) };
  if (column.type === 'boolean') {
    if (typeof value === 'boolean') return { ok: true, value };
    const text = String(value).trim().toLowerCase();
    return text === 'true' || text === 'false'
      ? { ok: true, value: text === 'true' }
      : { ok: false, message: `${column.name} must be true or false.` };
  }
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*-?\d+([.,]\d+)?([eE][-+]?\d+)?\s*$/.test(value)
        ? Number(value.trim().replace(',', '.'))
        : NaN;
  if (!Number.isFinite(number)) return { ok: false, message: `${column.name} must be a number.` };
  if (column.type === 'integer' && !Number.isInteger(number))
    return { ok: false, message: `${column.name} must be a whole number.` };
  return { ok: true, value: number };
}

/**
 * Builds records from rows as they come: a record is complete once a row with another key follows it
 * (or the file ends), so at most one record is held. A key seen before, not on the row just above, is an
 * error: its rows must be together.
 */
export class RecordAssembler {
  private current: AssembledRecord | null = null;
  private currentKey: string | null = null;
  private readonly firstRows = new Map<string, number>();
  private readonly keyIndex: number;

  constructor(
    private readonly columns: readonly (Column | null)[],
    private readonly key: string,
  ) {
    this.keyIndex = columns.findIndex((c) => c?.name === key);
  }

  /**
   * Adds a row; answers the record it completed, if any, the record the row went into (none when its key
   * is missing) and the row's errors.
   */
  push(
    row: number,
    cells: readonly CellValue[],
  ): { done: AssembledRecord | null; into: AssembledRecord | null; errors: RowError[] } {
    const errors: RowError[] = [];
    const error = (column: string, value: string | null, code: string, message: string) =>
      errors.push({ row, column, value, code, message });
    const keyText = cellText(cells[this.keyIndex] ?? null)?.trim() ?? '';
    if (!keyText) {
      error(this.key, null, 'Required', `${this.key} is required on every row.`);
      return { done: null, into: null, errors };
    }
    let done: AssembledRecord | null = null;
    if (keyText !== this.currentKey) {
      const first = this.firstRows.get(keyText);
      if (first !== undefined)
        error(
          this.key,
          keyText,
          'InvalidValue',
          `The rows of ${this.key} ${keyText} must be together; its first row is ${first}.`,
        );
      done = this.current;
      this.firstRows.set(keyText, row);
      this.current = { record: {}, row, lists: {} };
      this.currentKey = keyText;
    }
    const record = this.current!;
    const elements = new Map<string, Record<string, unknown>>();
    this.columns.forEach((column, index) => {
      const cell = cells[index] ?? null;
      if (!column || cell === null || (typeof cell === 'string' && cell.trim() === '')) return;
      const result = typed(column, cell);
      if (!result.ok) {
        error(column.name, cellText(cell), 'InvalidValue', result.message);
        return;
      }
      if (column.scalarList) {
        const list = (getPath(record.record, column.path) as unknown[] | undefined) ?? [];
        setPath(record.record, column.path, [...list, result.value]);
        (record.lists[column.name] ??= []).push(row);
      } else if (column.list) {
        const element = elements.get(column.list) ?? {};
        elements.set(column.list, element);
        setPath(element, column.path.slice(column.list.split('.').length), result.value);
      } else {
        const before = getPath(record.record, column.path);
        if (before !== undefined && before !== result.value)
          error(
            column.name,
            cellText(cell),
            'InvalidValue',
            `${column.name} differs from the record's first row (${cellText(before as CellValue)}); leave it empty or repeat it.`,
          );
        else setPath(record.record, column.path, result.value);
      }
    });
    for (const [list, element] of elements) {
      const path = list.split('.');
      const items = (getPath(record.record, path) as unknown[] | undefined) ?? [];
      setPath(record.record, path, [...items, element]);
      (record.lists[list] ??= []).push(row);
    }
    return { done, into: record, errors };
  }

  /** The last record, once the rows are over. */
  end(): AssembledRecord | null {
    const last = this.current;
    this.current = null;
    return last;
  }
}

/**
 * Where a JSON path inside a record (`ProductInstances[1].Quantity`, `EventTime`) is in the file: the
 * row of that list element (else the record's first row), the column it came from and its value.
 */
export function locate(
  record: AssembledRecord,
  field: string | null,
  columns: readonly Column[],
): Pick<RowError, 'row' | 'column' | 'value'> {
  if (!field || field === '$') return { row: record.row, column: null, value: null };
  const steps = field
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);
  const names = steps.filter((s) => !/^\d+$/.test(s));
  const name = names.join('.');
  const column = columns.find((c) => c.name === name) ?? columns.find((c) => c.name.startsWith(`${name}.`)) ?? null;
  let row = record.row;
  const indexAt = steps.findIndex((s) => /^\d+$/.test(s));
  if (indexAt > 0) {
    const list = steps.slice(0, indexAt).join('.');
    row = record.lists[list]?.[Number(steps[indexAt])] ?? row;
  }
  const value = getPath(record.record, steps);
  return {
    row,
    column: column?.name ?? name,
    value: typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : null,
  };
}
