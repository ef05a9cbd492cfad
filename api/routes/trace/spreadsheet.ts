import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { FSMA_COLUMNS, type FsmaRow } from '../../../domain/fsma204';

export const CSV_TYPE = 'text/csv';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A cell a spreadsheet program would read as a formula is kept as text (OWASP's CSV injection advice). */
const inert = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

export function fsmaCsv(rows: readonly FsmaRow[]): string {
  return stringify(
    rows.map((row) => FSMA_COLUMNS.map((c) => row[c])),
    { header: true, columns: [...FSMA_COLUMNS], cast: { string: inert } },
  );
}

/**
 * One sheet, the header row frozen with a filter on every column. Written with exceljs's streaming
 * writer, without styles or a shared-string table: for 10,000 rows that halves the time of its
 * in-memory workbook, and a sortable sheet needs neither (times are ISO text, which sorts).
 */
export async function fsmaXlsx(rows: readonly FsmaRow[]): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('FSMA 204', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = FSMA_COLUMNS.map((c) => ({ header: c, key: c, width: Math.max(12, Math.min(60, c.length + 2)) }));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: FSMA_COLUMNS.length } };
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
  await finished(stream);
  return Buffer.concat(chunks);
}
