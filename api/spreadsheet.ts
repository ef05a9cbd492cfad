import type { Readable } from 'node:stream';
import { CSV_TYPE, XLSX_TYPE } from '../platform/spreadsheet-writing';
import type { APIContext } from './context';

/** Answers a spreadsheet to download, `name`.csv or .xlsx, never to be rendered as something else. */
export async function sendSpreadsheet(
  ctx: APIContext,
  name: string,
  format: 'csv' | 'xlsx',
  content: { csv: () => string | Readable; xlsx: () => Promise<Buffer> | Readable },
): Promise<void> {
  ctx.set('Content-Disposition', `attachment; filename="${name}.${format}"`);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = format === 'xlsx' ? XLSX_TYPE : `${CSV_TYPE}; charset=utf-8`;
  ctx.body = format === 'xlsx' ? await content.xlsx() : content.csv();
}
