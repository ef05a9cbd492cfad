import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { listRequired, type Column } from '../../../domain/spreadsheet-columns';
import { isEventKind } from '../../../usecases/import-file';
import { exampleRow, type KindSpec } from './kinds';

/** RFC 4180 quoting. The template holds only our own header and example, so nothing is made inert. */
const csvField = (value: string | number | null): string => {
  if (value === null) return '';
  const text = String(value);
  return /[",;\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function templateCsv(spec: KindSpec): string {
  return `${[spec.columns.map((c) => c.name), exampleRow(spec)].map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** What the notes sheet says of a column: whether it must be filled, and when. */
function requirement(spec: KindSpec, column: Column): string {
  if (column.list) {
    const one = `${column.list} (one element per row)`;
    const needed = listRequired(spec.schema, column.list);
    if (column.scalarList) return `optional; a list: one value per row of the same ${spec.key}`;
    if (!column.required) return `optional in each element of ${one}`;
    return needed
      ? `required: at least one row per ${spec.key}, each element of ${one}`
      : `required in each element of ${one}`;
  }
  return column.required ? 'required' : 'optional';
}

export const NOTES_COLUMNS = ['Column', 'Required', 'Type', 'Allowed values', 'Meaning'] as const;

export function notesRows(spec: KindSpec): string[][] {
  return spec.columns.map((c) => [c.name, requirement(spec, c), c.type, c.allowed?.join(', ') ?? '', c.description]);
}

/**
 * Two sheets: the template (header and example row, every cell text so Excel keeps `+01:00` and
 * `0150` as written) and its notes, one row per column.
 */
export async function templateXlsx(spec: KindSpec): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(spec.kind, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = spec.columns.map((c) => ({
    header: c.name,
    key: c.name,
    width: Math.max(12, Math.min(40, c.name.length + 2)),
  }));
  sheet.addRow(exampleRow(spec).map((v) => (v === null ? null : String(v)))).commit();
  sheet.commit();
  const notes = workbook.addWorksheet('Notes');
  notes.columns = NOTES_COLUMNS.map((c) => ({ header: c, key: c, width: c === 'Meaning' ? 80 : 30 }));
  for (const row of notesRows(spec)) notes.addRow(row).commit();
  notes.addRow([]).commit();
  for (const line of explanation(spec)) notes.addRow([line]).commit();
  notes.commit();
  await workbook.commit();
  await finished(stream);
  return Buffer.concat(chunks);
}

function explanation(spec: KindSpec): string[] {
  const what = isEventKind(spec.kind) ? `one ${spec.kind} event` : `one of your ${spec.kind}`;
  return [
    `Each row is ${what}; rows with the same ${spec.key} are one record, each adding one element to its lists (a column named List.Field).`,
    'A column name is the JSON field it fills in the API (POST /Integration/Events, /Integration/Locations, /Integration/Products). Leave out columns you do not need; an unknown column is refused.',
    'Upload the file with POST /Integration/Imports or on the /imports page.',
  ];
}
