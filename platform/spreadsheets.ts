/**
 * Rows of an uploaded CSV or XLSX file, read as a stream (csv-parse; exceljs's streaming reader), so a
 * 20 MB file is never whole in memory. Both give the same thing: each row's number as a spreadsheet
 * program shows it (the header is row 1) and its cells, plain values.
 */
import { pipeline, Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import ExcelJS from 'exceljs';

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

/** The first worksheet's rows. Styles are read: they are what makes a number cell an Excel date. */
async function* xlsxRows(input: Readable): AsyncGenerator<SheetRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  try {
    for await (const sheet of reader) {
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        const values = row.values as ExcelJS.CellValue[];
        const cells: Cell[] = [];
        for (let i = 1; i < values.length; i++) cells.push(plainCell(values[i]));
        if (!isEmpty(cells)) yield { row: row.number, cells };
      }
      return;
    }
  } catch (error) {
    throw new UnreadableSpreadsheet(`The XLSX file cannot be read: ${(error as Error).message}`);
  }
}

export const readRows = (input: Readable, format: SpreadsheetFormat): AsyncGenerator<SheetRow> =>
  format === 'csv' ? csvRows(input) : xlsxRows(input);
