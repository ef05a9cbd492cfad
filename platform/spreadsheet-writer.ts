/**
 * Workbooks the service answers (a download; platform/spreadsheets.ts reads uploads): the FSMA 204 sheet
 * and a recall's effectiveness. Each sheet's header row frozen, with a filter on every column. Written with
 * exceljs's streaming writer, without styles or a shared-string table: for the FSMA sheet's 10,000 rows
 * that halves the time of its in-memory workbook, and a sortable sheet needs neither (times are ISO text,
 * which sorts).
 */
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import ExcelJS from 'exceljs';

export interface SheetToWrite {
  name: string;
  columns: readonly string[];
  /** Values in column order; numbers stay numbers, so the sheet sums them. A text cell is never read as a formula. */
  rows: Iterable<readonly (string | number | boolean | null)[]>;
}

export async function xlsxWorkbook(sheets: readonly SheetToWrite[]): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  for (const { name, columns, rows } of sheets) {
    const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = columns.map((c) => ({ header: c, key: c, width: Math.max(12, Math.min(60, c.length + 2)) }));
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
    for (const row of rows) sheet.addRow([...row]).commit();
    sheet.commit();
  }
  await workbook.commit();
  await finished(stream);
  return Buffer.concat(chunks);
}
