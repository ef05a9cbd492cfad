import { findOrCreateBatch } from '../db/repositories/batches';
import {
  findImport,
  chunkBatchKey,
  importFile,
  markSplit,
  recordedChunks,
  recordImportBatch,
  recordImportFailed as recordFailed,
  type ImportRow,
  type Provenance,
} from '../db/repositories/imports';
import { createMasterData, MasterDataRefused } from '../usecases/master-data';
import type { LocationPayload, ProductPayload } from '../domain/master-data';
import type { Column } from '../domain/spreadsheet-columns';
import {
  IMPORT_CHUNK_EVENTS,
  locate,
  RecordAssembler,
  type AssembledRecord,
  type RowError,
} from '../domain/spreadsheet-rows';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { InTurn } from '../platform/in-turn';
import { readRows, UnreadableSpreadsheet } from '../platform/spreadsheets';
import type { ImportChunkBatch, ImportFailure, SplitImportInput } from '../pipeline/contracts';
import type { ActivityDeps } from './deps';

/** The row of import_batches for a chunk: its batch (none for master data), its rows and their provenance. */
const chunkOf = (seq: number, batchId: string | null, records: AssembledRecord[], lastRow: number) => ({
  seq,
  batchId,
  firstRow: records[0].row,
  lastRow,
  provenance: records.map((r): Provenance => ({ row: r.row, lists: r.lists })),
});

/**
 * A chunk of locations or products, stored as POST /Integration/Locations or /Products would: in one
 * transaction, all or nothing, with its outcome (its errors on their rows) recorded in the same one.
 */
async function storeMasterDataChunk(
  deps: ActivityDeps,
  input: SplitImportInput,
  row: ImportRow,
  seq: number,
  records: AssembledRecord[],
  lastRow: number,
): Promise<void> {
  const account = { id: row.account_id, name: input.accountName };
  const columns = row.columns.filter((c): c is Column => c !== null);
  const chunk = chunkOf(seq, null, records, lastRow);
  const data =
    row.kind === 'locations'
      ? { kind: 'locations' as const, records: records.map((r) => r.record as unknown as LocationPayload) }
      : { kind: 'products' as const, records: records.map((r) => r.record as unknown as ProductPayload) };
  try {
    await createMasterData(deps, {
      account,
      data,
      fieldOf: () => 'Record',
      alsoInTransaction: (transaction) =>
        recordImportBatch(
          deps.sequelize,
          row.id,
          chunk,
          { status: 'Completed', records: records.length, errors: null },
          transaction,
        ),
    });
  } catch (error) {
    if (!(error instanceof MasterDataRefused)) throw error;
    const errors: RowError[] = error.errors.map(({ index, field, message }) => ({
      ...locate(records[index!], field.replace(/^Record\.?/, '').replace(/^id$/, 'Id'), columns),
      code: 'Conflict',
      message,
    }));
    await recordImportBatch(deps.sequelize, row.id, chunk, { status: 'Failed', records: records.length, errors });
  }
}

/**
 * The import's step when its upload stored the file alone (locations and products, whose chunks are
 * stored here in their own transactions; events uploaded by an earlier version, and runs of before the
 * upload stored events' chunks): reads the stored file again (from PostgreSQL, so any worker can), builds
 * its records with the columns the upload checked, and stores each chunk of at most IMPORT_CHUNK_EVENTS
 * with the rows it came from. Starting the batches is the workflow's: they become its children.
 */
export function splitImport(deps: ActivityDeps) {
  return async (input: SplitImportInput): Promise<ImportChunkBatch[]> => {
    try {
      return await split(deps, input);
    } catch (error) {
      // The file read differently from its check at upload (or its row is gone): another attempt reads
      // the same bytes, so it is not made; the workflow records the import Failed.
      if (error instanceof UnreadableSpreadsheet || error instanceof ImportGone)
        throw ApplicationFailure.nonRetryable(error.message, error.constructor.name);
      throw error;
    }
  };
}

class ImportGone extends Error {}

/** The running attempt's cancellation, when there is one (not in a test that calls the step by hand). */
function abandoned(): AbortSignal | undefined {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return undefined;
  }
}

async function split(deps: ActivityDeps, input: SplitImportInput): Promise<ImportChunkBatch[]> {
  const row = await findImport(deps.sequelize, { accountId: input.accountId, id: input.importId });
  if (!row) throw new ImportGone(`No import ${input.importId} in account ${input.accountName}.`);
  const assembler = new RecordAssembler(row.columns, 'Id');
  const chunks: ImportChunkBatch[] = [];
  let pending: AssembledRecord[] = [];
  let lastRow = 1;
  let seq = 0;
  const masterData = row.kind === 'locations' || row.kind === 'products';
  const stored = masterData ? await recordedChunks(deps.sequelize, row.id) : new Set<number>();
  // A chunk of events is stored while the rows of the next one are read (one store at a time, in
  // order): the two are about equal shares of the step.
  const storing = new InTurn();
  const storeEvents = async (records: AssembledRecord[], chunkSeq: number, lastRowOf: number) => {
    // An attempt Temporal gave up on (its heartbeat timed out, a retry or the import's failure follows)
    // stores no more chunks: the import's failure must find every chunk there is.
    abandoned()?.throwIfAborted();
    const events = records.map((r) => ({ $type: row.kind, ...r.record }));
    // Stored as POST /Integration/Events/async would. The one place an import makes a batch: its
    // Idempotency-Key is the import's and the chunk's, so a run of the activity again after a crash finds
    // the batch it made instead of making another.
    const { batch } = await findOrCreateBatch({
      accountId: input.accountId,
      mode: 'async',
      request: { Events: events },
      eventCount: events.length,
      idempotencyKey: chunkBatchKey(input.importId, chunkSeq),
      requestId: input.requestId ?? undefined,
    });
    await recordImportBatch(deps.sequelize, row.id, chunkOf(chunkSeq, batch.id, records, lastRowOf));
    chunks.push({ seq: chunkSeq, batchId: batch.id, workflowId: batch.workflowId, eventCount: events.length });
  };
  const flush = async () => {
    if (!pending.length) return;
    const [records, chunkSeq, lastRowOf] = [pending, seq++, lastRow];
    pending = [];
    if (!masterData) await storing.next(() => storeEvents(records, chunkSeq, lastRowOf));
    else if (!stored.has(chunkSeq)) await storeMasterDataChunk(deps, input, row, chunkSeq, records, lastRowOf);
  };
  try {
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
  } finally {
    // Never a chunk stored after the step has failed: the import's failure marks the chunks stored before it.
    await storing.settled();
  }
  const last = assembler.end();
  if (last) pending.push(last);
  await flush();
  await storing.finished();
  await markSplit(deps.sequelize, row.id);
  return chunks;
}

/** processImport's step after its split failed for good: the import Failed with the reason, nothing of it run. */
export function recordImportFailed(deps: ActivityDeps) {
  return async ({ importId, reason }: ImportFailure): Promise<void> => {
    await recordFailed(deps.sequelize, importId, reason);
  };
}
