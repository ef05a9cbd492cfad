import { xlsxWorkbook } from '../../../platform/spreadsheet-writing';
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

const NOTES_COLUMNS = ['Column', 'Required', 'Type', 'Allowed values', 'Meaning'];

/**
 * Two sheets: the template (header and example row, every cell text so Excel keeps `+01:00` and
 * `0150` as written) and its notes, one row per column, then how the file is read.
 */
export const templateXlsx = (spec: KindSpec): Promise<Buffer> =>
  xlsxWorkbook([
    {
      name: spec.kind,
      columns: spec.columns.map((c) => c.name),
      rows: [exampleRow(spec).map((v) => (v === null ? null : String(v)))],
    },
    {
      name: 'Notes',
      columns: NOTES_COLUMNS,
      widths: [30, 30, 30, 30, 80],
      rows: [
        ...spec.columns.map((c) => [c.name, requirement(spec, c), c.type, c.allowed?.join(', ') ?? '', c.description]),
        [],
        ...explanation(spec).map((line) => [line]),
      ],
    },
  ]);

function explanation(spec: KindSpec): string[] {
  const what = isEventKind(spec.kind) ? `one ${spec.kind} event` : `one of your ${spec.kind}`;
  return [
    `Each row is ${what}; rows with the same ${spec.key} are one record, each adding one element to its lists (a column named List.Field).`,
    'A column name is the JSON field it fills in the API (POST /Integration/Events, /Integration/Locations, /Integration/Products). Leave out columns you do not need; an unknown column is refused.',
    'Upload the file with POST /Integration/Imports or on the /imports page.',
  ];
}
