import type { Sequelize } from 'sequelize';
import { importBatches, type ImportRow } from '../../../db/repositories/imports';
import type { Column } from '../../../domain/spreadsheet-columns';
import { locate, type RowError } from '../../../domain/spreadsheet-rows';

export type ImportStatus = 'Accepted' | 'Running' | 'Completed' | 'Failed';

export const importStatusUrl = (id: string): string => `/Integration/Imports/${id}`;

/**
 * An import as its rows say it now: refused at upload (its row errors), waiting for its workflow (its
 * batches stored, none started yet, or its file waiting to be split), its batches under way, or finished.
 * Read from the batches each time, so it cannot go stale; a failed batch's errors are shown on the rows
 * and columns they came from, read back from the batch's stored events. An import whose split failed for
 * good is Failed with the reason, first of its errors.
 */
export async function presentImport(sequelize: Sequelize, row: ImportRow, placed = true) {
  const batches = row.refused ? [] : await importBatches(sequelize, row.id, placed);
  const columns = row.columns.filter((c): c is Column => c !== null);
  const errors: RowError[] = [...(row.errors ?? [])];
  if (row.failed_at)
    errors.push({ row: null, column: null, value: null, code: 'InternalError', message: row.failure ?? 'Failed.' });
  for (const batch of batches) {
    if (batch.status !== 'Failed') continue;
    errors.push(...(batch.row_errors ?? []));
    for (const error of batch.errors ?? []) {
      const origin = error.index === null ? undefined : batch.provenance?.[error.index];
      const event = error.index === null ? undefined : batch.events?.[error.index];
      const place =
        origin && event
          ? locate({ record: event, row: origin.row, lists: origin.lists }, error.field, columns)
          : { row: null, column: null, value: null };
      errors.push({ ...place, code: error.code, message: error.message });
    }
  }
  const finished = batches.every((b) => b.status === 'Completed' || b.status === 'Failed');
  const status: ImportStatus =
    row.refused || row.failed_at
      ? 'Failed'
      : !row.split_at
        ? batches.some((b) => b.status !== 'Accepted')
          ? 'Running'
          : 'Accepted'
        : !finished
          ? 'Running'
          : batches.some((b) => b.status === 'Failed')
            ? 'Failed'
            : 'Completed';
  return {
    importId: row.id,
    kind: row.kind,
    fileName: row.file_name,
    format: row.format,
    status,
    submittedAt: new Date(row.submitted_at).toISOString(),
    rowsRead: row.rows_read,
    eventsStored: batches.filter((b) => b.status === 'Completed').reduce((sum, b) => sum + b.event_count, 0),
    batches: batches.map((b) => ({
      batchId: b.batch_id,
      status: b.status,
      events: b.event_count,
      firstRow: b.first_row,
      lastRow: b.last_row,
    })),
    errors,
    statusUrl: importStatusUrl(row.id),
  };
}

/** A list entry: what the import is and how it stands, without its errors. */
export const presentImportSummary = async (sequelize: Sequelize, row: ImportRow) => {
  const { errors, batches, ...summary } = await presentImport(sequelize, row, false);
  return { ...summary, batchCount: batches.length, errorCount: errors.length };
};
