/**
 * Writing spreadsheets (reading them is spreadsheets.ts): the FSMA 204 sortable spreadsheet, as CSV or as
 * the FDA template's workbook, a recall's effectiveness workbook, and the quoting of any CSV field: a file
 * format, the same whoever asks for it. Workbooks are written with exceljs's streaming writer, without styles
 * or a shared-string table: for the FSMA sheet's 10,000 rows that halves the time of its in-memory workbook,
 * and a sortable sheet needs neither (times are ISO text, which sorts). Each sheet's header row is frozen,
 * with a filter on every column.
 */
import { PassThrough, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { CTES, CTE_COLUMNS, FSMA_COLUMNS, type FsmaRow } from '../domain/fsma204';

export const CSV_TYPE = 'text/csv';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A cell a spreadsheet program would read as a formula is kept as text (OWASP's CSV injection advice). */
const inert = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** RFC 4180: a field holding a quote, comma or line break is quoted, its quotes doubled. */
export const csvField = (value: string | number): string => {
  if (typeof value === 'number') return String(value);
  const text = inert(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/**
 * Written here rather than by csv-stringify: RFC 4180 quoting is the two lines above, and for the
 * benchmark's 10,000 rows csv-stringify took 150 to 280 ms of CPU where this takes 45 to 100 ms, with
 * byte-identical output.
 */
export const fsmaCsv = (rows: readonly FsmaRow[]): string => [...fsmaCsvChunks(rows)].join('');

/** Rows quoted at once per chunk: a response streams the sheet without holding all of its text. */
const CSV_CHUNK_ROWS = 500;

/** The sheet's CSV text in chunks of rows, to stream (`Readable.from`). */
export function* fsmaCsvChunks(rows: readonly FsmaRow[]): Generator<string> {
  let lines = [FSMA_COLUMNS.map(csvField).join(',')];
  for (const row of rows) {
    lines.push(FSMA_COLUMNS.map((c) => csvField(row[c])).join(','));
    if (lines.length >= CSV_CHUNK_ROWS) {
      yield `${lines.join('\n')}\n`;
      lines = [];
    }
  }
  if (lines.length) yield `${lines.join('\n')}\n`;
}

/**
 * One sheet per CTE, as the FDA's template has it, each with that CTE's KDE columns, the header row frozen
 * with a filter on every column; a CTE with no rows keeps its sheet and header.
 */
export const fsmaXlsx = (rows: readonly FsmaRow[]): Readable =>
  xlsxStream(
    CTES.map((cte) => {
      const columns = CTE_COLUMNS[cte];
      return {
        name: cte,
        columns,
        // Values in column order: exceljs maps an object's keys onto the columns cell by cell.
        rows: (function* () {
          for (const row of rows) if (row['Critical Tracking Event'] === cte) yield columns.map((c) => row[c]);
        })(),
      };
    }),
  );

export interface SheetToWrite {
  name: string;
  columns: readonly string[];
  /** Each column's width in characters; else from its header, 12 to 60. */
  widths?: readonly number[];
  /** Values in column order; numbers stay numbers, so the sheet sums them. A text cell is never read as a formula. */
  rows: Iterable<readonly (string | number | boolean | null)[]>;
}

/** The workbook as it is written: a response sends it without holding it whole; a failure destroys the stream. */
function xlsxStream(sheets: readonly SheetToWrite[]): Readable {
  const stream = new PassThrough();
  writeWorkbook(sheets, stream).catch((error: unknown) =>
    stream.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return stream;
}

export const xlsxWorkbook = (sheets: readonly SheetToWrite[]): Promise<Buffer> => buffer(xlsxStream(sheets));

async function writeWorkbook(sheets: readonly SheetToWrite[], stream: PassThrough): Promise<void> {
  // Loaded on the first workbook written, as platform/spreadsheets.ts loads it to read one: the API loads
  // this module at every start, and most starts never write a workbook.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  for (const { name, columns, widths, rows } of sheets) {
    const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = columns.map((c, i) => ({
      header: c,
      key: c,
      width: widths?.[i] ?? Math.max(12, Math.min(60, c.length + 2)),
    }));
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
    for (const row of rows) sheet.addRow([...row]).commit();
    sheet.commit();
  }
  await workbook.commit();
}
