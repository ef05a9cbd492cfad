import { findOrCreateBatch } from '../db/repositories/batches';
import { findImport, importFile, markSplit, recordImportBatch, type Provenance } from '../db/repositories/imports';
import { RecordAssembler, type AssembledRecord } from '../domain/spreadsheet-rows';
import { readRows } from '../platform/spreadsheets';
import type { ImportChunkBatch, SplitImportInput } from '../workflows/contracts';
import type { ActivityDeps } from './deps';

/** At most this many events in a chunk's batch: the batch endpoint's own bound (MAX_EVENTS). */
export const IMPORT_CHUNK_EVENTS = 1000;

/**
 * Stores one chunk as a batch, as POST /Integration/Events/async would. The one place an import makes a
 * batch: its Idempotency-Key is the import's and the chunk's, so a run of the activity again after a
 * crash finds the batch it made instead of making another.
 */
async function storeChunkBatch(input: SplitImportInput, seq: number, events: Record<string, unknown>[]) {
  const { batch } = await findOrCreateBatch({
    accountId: input.accountId,
    mode: 'async',
    request: { Events: events },
    eventCount: events.length,
    idempotencyKey: `import-${input.importId}-${seq}`,
    requestId: input.requestId ?? undefined,
  });
  return batch;
}

/**
 * The import's step: reads the stored file again (from PostgreSQL, so any worker can), builds its records
 * with the columns the upload checked, and stores each chunk of at most IMPORT_CHUNK_EVENTS as a batch
 * with the rows it came from. Starting the batches is the workflow's: they become its children.
 */
export function splitImport(deps: ActivityDeps) {
  return async (input: SplitImportInput): Promise<ImportChunkBatch[]> => {
    const row = await findImport(deps.sequelize, { accountId: input.accountId, id: input.importId });
    if (!row) throw new Error(`No import ${input.importId}.`);
    const columns = row.columns;
    const assembler = new RecordAssembler(columns, 'Id');
    const chunks: ImportChunkBatch[] = [];
    let pending: AssembledRecord[] = [];
    let lastRow = 1;
    const flush = async () => {
      if (!pending.length) return;
      const seq = chunks.length;
      const events = pending.map((r) => ({ $type: row.kind, ...r.record }));
      const batch = await storeChunkBatch(input, seq, events);
      const provenance: Provenance[] = pending.map((r) => ({ row: r.row, lists: r.lists }));
      await recordImportBatch(deps.sequelize, row.id, {
        seq,
        batchId: batch.id,
        firstRow: pending[0].row,
        lastRow,
        provenance,
      });
      chunks.push({ seq, batchId: batch.id, workflowId: batch.workflowId, eventCount: events.length });
      pending = [];
    };
    let header = true;
    for await (const { row: number, cells } of readRows(importFile(deps.sequelize, row.id), row.format)) {
      if (header) {
        header = false;
        continue;
      }
      const { done } = assembler.push(number, cells);
      if (done) {
        pending.push(done);
        if (pending.length === IMPORT_CHUNK_EVENTS) await flush();
      }
      lastRow = number;
    }
    const last = assembler.end();
    if (last) pending.push(last);
    await flush();
    await markSplit(deps.sequelize, row.id);
    return chunks;
  };
}
