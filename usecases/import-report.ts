/**
 * How an import stands: refused at upload (its row errors), waiting for its workflow (its batches stored,
 * none started yet, or its file waiting to be split), its batches under way, or finished. Read from the
 * batches each time, so it cannot go stale; a failed batch's errors are put on the rows and columns they
 * came from, read back from the batch's stored events. An import whose split failed for good is Failed
 * with the reason, first of its errors.
 */
import type { Sequelize } from 'sequelize';
import { importBatches, type ImportBatchView, type ImportRow } from '../db/repositories/imports';
import type { Column } from '../domain/spreadsheet-columns';
import { locate, type RowError } from '../domain/spreadsheet-rows';

export type ImportStatus = 'Accepted' | 'Running' | 'Completed' | 'Failed';

export interface ImportReport {
  row: ImportRow;
  status: ImportStatus;
  batches: ImportBatchView[];
  errors: RowError[];
  eventsStored: number;
}

/**
 * The reports of these imports, in their order, read in one query. With `placed` false a failed batch's
 * errors are not put on their rows (a list needs only their count).
 */
export async function importReports(sequelize: Sequelize, rows: ImportRow[], placed = true): Promise<ImportReport[]> {
  const batchesOf = await importBatches(
    sequelize,
    rows.filter((row) => !row.refused).map((row) => row.id),
    placed,
  );
  return rows.map((row) => reportOf(row, batchesOf.get(row.id) ?? []));
}

function reportOf(row: ImportRow, batches: ImportBatchView[]): ImportReport {
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
  const eventsStored = batches.filter((b) => b.status === 'Completed').reduce((sum, b) => sum + b.event_count, 0);
  return { row, status, batches, errors, eventsStored };
}
