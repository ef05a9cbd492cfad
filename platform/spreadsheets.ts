/**
 * Rows of an uploaded CSV or XLSX file: a CSV read as a stream (csv-parse); an XLSX's compressed file held
 * in memory (an import is at most 20 MB) and its first worksheet inflated and read row by row (exceljs). Both
 * give the same thing: each row's number as a spreadsheet program shows it (the header is row 1) and its
 * cells, plain values.
 */
import { posix } from 'node:path';
import { pipeline, Readable, Transform } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { CsvError, parse } from 'csv-parse';
import type ExcelJS from 'exceljs';

export type SpreadsheetFormat = 'csv' | 'xlsx';

/** A cell as read: text (CSV, or an XLSX text cell), a number, a boolean or a date (XLSX), or empty. */
export type Cell = string | number | boolean | Date | null;

export interface SheetRow {
  row: number;
  cells: Cell[];
}

/** The file cannot be read as the format it claims (not a zip, a quote never closed, ...). */
export class UnreadableSpreadsheet extends Error {}

const isEmpty = (cells: readonly Cell[]): boolean =>
  cells.every((c) => c === null || (typeof c === 'string' && c.trim() === ''));

/**
 * `;` or `,`, whichever the header line has more of outside quotes (a header naming JSON fields holds
 * neither otherwise); `,` when it has neither.
 */
export function separatorOf(head: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of head.replace(/^\uFEFF/, '')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char === ',') commas++;
    else if (!quoted && char === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** Reads up to the end of the first line (or 64 KiB), and gives it back with a stream of the whole input. */
async function peekHead(input: Readable): Promise<{ head: string; whole: Readable }> {
  const taken: Buffer[] = [];
  let length = 0;
  const iterator = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  while (length < 64 * 1024) {
    const next = await iterator.next();
    if (next.done) break;
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    taken.push(chunk);
    length += chunk.length;
    if (chunk.includes(0x0a)) break;
  }
  const first = Buffer.concat(taken);
  async function* rest(): AsyncGenerator<Buffer> {
    yield first;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head: first.toString('utf8'), whole: Readable.from(rest()) };
}

async function* csvRows(input: Readable): AsyncGenerator<SheetRow> {
  const { head, whole } = await peekHead(input);
  const parser = parse({ bom: true, delimiter: separatorOf(head), relax_column_count: true, skip_empty_lines: false });
  // pipeline, not pipe: an error of the input reaches the parser, and so the loop below, instead of being unhandled.
  pipeline(whole, parser, () => undefined);
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      const cells: Cell[] = record.map((c) => (c === '' ? null : c));
      if (!isEmpty(cells)) yield { row, cells };
    }
  } catch (error) {
    // Only the parser's own errors are the file's fault: one of the input (a database read of the stored
    // file failing) goes up as it is, so whoever reads may try again.
    if (!(error instanceof CsvError)) throw error;
    throw new UnreadableSpreadsheet(`The CSV cannot be read after row ${row}: ${(error as Error).message}`);
  } finally {
    // A reader that stops early (a bad header, too many rows) leaves nothing reading.
    whole.destroy();
  }
}

/** An XLSX cell's value as plain data: a formula by its result, rich text and links by their text. */
function plainCell(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date)
    return value;
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((t) => t.text).join('');
    if ('result' in value) return plainCell((value.result ?? null) as ExcelJS.CellValue);
    if ('text' in value) return plainCell(value.text as ExcelJS.CellValue);
    if ('error' in value) return String(value.error);
  }
  return null;
}

/**
 * The steps of exceljs's streaming reader that each read one part of a workbook. Its own parse() reads
 * the zip in one streaming pass, which now and then loses the workbook part (stored last by exceljs's
 * own writer) on Node 18 and later: "Cannot read properties of undefined (reading 'sheets')" for a valid
 * file, about one read in a hundred here (exceljs/exceljs#3064, open). The parts are read here through
 * the zip's central directory instead, in the order they need each other.
 */
interface WorkbookParts {
  model?: { sheets?: { rId: string }[] };
  workbookRels?: { Id: string; Type: string; Target: string }[];
  _parseRels(part: Readable): Promise<void>;
  _parseWorkbook(part: Readable): Promise<void>;
  _parseSharedStrings(part: Readable): AsyncGenerator<unknown>;
  _parseStyles(part: Readable): Promise<void>;
  _parseWorksheet(part: Readable, sheetNo: string): Generator<{ value: AsyncIterable<ExcelJS.Row> }>;
}

/**
 * What the parts of an XLSX file may inflate to, together: far above what 100,000 rows take, far below
 * what would exhaust the process (a 20 MB zip of one repeated byte inflates to gigabytes).
 */
const MAX_XLSX_INFLATED_BYTES = 512 * 1024 * 1024;

/** A stream of `part` that fails once the parts read through `spent` pass `limit` bytes together. */
function budgeted(part: Readable, spent: { bytes: number }, limit: number): Transform {
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      spent.bytes += chunk.length;
      if (spent.bytes <= limit) callback(null, chunk);
      else callback(new Error(`it unzips to more than ${limit / 2 ** 20} MB; split it into smaller files`));
    },
  });
  // pipeline, not pipe: a failure of the part (a password it needs) reaches whoever reads the count.
  return pipeline(part, counted, () => undefined);
}

/** A relationship's target as a path in the zip: from the package's root when absolute, else from xl/. */
function partPath(target: string): string {
  const decoded = (() => {
    try {
      return decodeURIComponent(target);
    } catch {
      return target;
    }
  })();
  return decoded.startsWith('/') ? posix.normalize(decoded).slice(1) : posix.join('xl', decoded);
}

/**
 * The workbook's first worksheet by the workbook's own order (not the zip's; a chart sheet is no
 * worksheet), its rows read as they are inflated. Styles are read: they are what makes a number cell an
 * Excel date.
 */
async function firstWorksheet(file: Buffer, maxInflatedBytes: number): Promise<AsyncIterable<ExcelJS.Row>> {
  // unzipper and exceljs are loaded on the first workbook read, not with the module: the API and both workers
  // load this module, and the two were about 0.85 s of CPU at every start of each (most never read a workbook).
  const { default: unzipper } = await import('unzipper');
  const { files } = await unzipper.Open.buffer(file);
  const entries = new Map(files.map((entry) => [entry.path, entry]));
  const spent = { bytes: 0 };
  // Each part opened as it is read, so that its failure (a password it needs) reaches the step reading it;
  // decoded as UTF-8 by the stream, so that a character split between two chunks stays whole.
  const open = (path: string): Readable | undefined => {
    const entry = entries.get(path);
    return entry && budgeted(entry.stream(), spent, maxInflatedBytes).setEncoding('utf8');
  };
  const { default: excel } = await import('exceljs');
  const reader = new excel.stream.xlsx.WorkbookReader(Readable.from([]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  }) as unknown as WorkbookParts;
  const noWorkbook = () => new Error('it holds no workbook (xl/workbook.xml and its relationships)');
  const rels = open('xl/_rels/workbook.xml.rels');
  if (!rels || !entries.has('xl/workbook.xml')) throw noWorkbook();
  await reader._parseRels(rels);
  const workbook = open('xl/workbook.xml');
  if (!workbook) throw noWorkbook();
  await reader._parseWorkbook(workbook);
  const strings = open('xl/sharedStrings.xml');
  if (strings) for await (const _ of reader._parseSharedStrings(strings));
  const styles = open('xl/styles.xml');
  if (styles) await reader._parseStyles(styles);
  const relationships = reader.workbookRels ?? [];
  const target = (reader.model?.sheets ?? [])
    .map(({ rId }) => relationships.find((rel) => rel.Id === rId))
    .find((rel) => rel?.Type.endsWith('/worksheet'))?.Target;
  const sheet = target === undefined ? undefined : open(partPath(target));
  if (!target || !sheet) throw new Error('its workbook names no worksheet it holds');
  const [emitted] = reader._parseWorksheet(sheet, /sheet(\d+)\.xml$/.exec(target)?.[1] ?? '1');
  return emitted.value;
}

async function* xlsxRows(input: Readable, maxInflatedBytes: number): AsyncGenerator<SheetRow> {
  // Not the input's own failure (a database read of the stored file): that goes up as it is.
  const file = await buffer(input);
  try {
    for await (const row of await firstWorksheet(file, maxInflatedBytes)) {
      const values = row.values as ExcelJS.CellValue[];
      const cells: Cell[] = [];
      for (let i = 1; i < values.length; i++) cells.push(plainCell(values[i]));
      if (!isEmpty(cells)) yield { row: row.number, cells };
    }
  } catch (error) {
    throw new UnreadableSpreadsheet(`The XLSX file cannot be read: ${(error as Error).message}`);
  }
}

export const readRows = (
  input: Readable,
  format: SpreadsheetFormat,
  { maxInflatedBytes = MAX_XLSX_INFLATED_BYTES } = {},
): AsyncGenerator<SheetRow> => (format === 'csv' ? csvRows(input) : xlsxRows(input, maxInflatedBytes));
