import type { ImportReport } from '../../../usecases/import-report';

export const importStatusUrl = (id: string): string => `/Integration/Imports/${id}`;

/** An import as its report says it stands now (usecases/import-report.ts). */
export function presentImport({ row, status, batches, errors, eventsStored }: ImportReport) {
  return {
    importId: row.id,
    kind: row.kind,
    fileName: row.file_name,
    format: row.format,
    status,
    submittedAt: new Date(row.submitted_at).toISOString(),
    rowsRead: row.rows_read,
    eventsStored,
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
export const presentImportSummary = (report: ImportReport) => {
  const { errors, batches, ...summary } = presentImport(report);
  return { ...summary, batchCount: batches.length, errorCount: errors.length };
};
