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
    { header: true, columns: [...FSMA_COLUMNS], cast: { date: (d) => d.toISOString(), string: inert } },
  );
}

/** One sheet, a header row with filters on every column, frozen, times as real date cells so they sort. */
export async function fsmaXlsx(rows: readonly FsmaRow[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('FSMA 204', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = FSMA_COLUMNS.map((c) => ({
    header: c,
    key: c,
    width: Math.max(12, Math.min(60, c.length + 2)),
    ...(c === 'Event Time (UTC)' ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.addRows(rows.map((row) => ({ ...row })));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: FSMA_COLUMNS.length } };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
