import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { Sequelize, Transaction } from 'sequelize';
import type { Column } from '../../domain/spreadsheet-columns';
import type { RowError } from '../../domain/spreadsheet-rows';
import { internalError } from '../../domain/batch-errors';
import type { BatchStatus } from '../models';
import { pageOfRows, type PageRequest } from '../page';
import { executeOf, queryOf, rollbackToSavepoint, rowOf, savepoint } from '../sql';
import { insertChunkBatch } from './batches';
// As documents: a chunk is one statement's parameter, so an upload's memory stays at this.
import { CHUNK_BYTES } from './documents';

export interface ImportRow {
  id: string;
  account_id: string;
  kind: string;
  format: 'csv' | 'xlsx';
  file_name: string;
  size_bytes: number;
  idempotency_key: string | null;
  request_hash: string | null;
  workflow_id: string;
  columns: (Column | null)[];
  rows_read: number;
  refused: boolean;
  errors: RowError[] | null;
  submitted_at: Date;
  /** When its workflow had its chunks: split by its step, or stored at upload and taken over (takeStoredChunks). */
  split_at: Date | null;
  /** Set when the split step failed for good; `failure` says why. */
  failed_at: Date | null;
  failure: string | null;
}

export interface NewImport {
  id: string;
  accountId: string;
  kind: string;
  format: 'csv' | 'xlsx';
  fileName: string;
  sizeBytes: number;
  idempotencyKey: string | null;
  requestHash: string | null;
  requestId: string | null;
}

/** What reading an upload found: its header's columns, its data rows, and their errors (null: none). */
export interface ImportContent {
  columns: (Column | null)[];
  rowsRead: number;
  /** The rows did not pass the checks: the import is stored refused, with these, and nothing of its content. */
  errors: RowError[] | null;
}

/** A chunk of at most IMPORT_CHUNK_EVENTS events read from an upload, with the rows each came from. */
export interface ChunkOfEvents {
  seq: number;
  firstRow: number;
  lastRow: number;
  events: Record<string, unknown>[];
  provenance: Provenance[];
}

/** What the reading of an upload stores as it goes, in the upload's transaction. */
export interface ImportStore {
  /** A chunk as the Accepted batch the import's workflow starts (POST /Integration/Events/async's kind). */
  storeChunk(chunk: ChunkOfEvents): Promise<void>;
  /** The file itself, in pieces, for a step that reads it (an import of locations or products). */
  storeFile(contentPath: string): Promise<void>;
}

export const importWorkflowId = (importId: string): string => `import-${importId}`;

/** A chunk's batch's Idempotency-Key: a failed import finds its batches by it (recordImportFailed). */
export const chunkBatchKey = (importId: string, seq: number): string => `import-${importId}-${seq}`;

const CONTENT = 'import_content';

/**
 * Stores an upload in one transaction: its row first (a second upload with its Idempotency-Key waits for
 * this one, then finds it), then what `read` stores as it reads the file (its chunks' batches, or the file),
 * then what the reading found. Rows that fail the checks leave the row refused and none of its content;
 * `read` throwing (too many rows, a bad header) or a crash leaves nothing.
 */
export async function insertImport(
  sequelize: Sequelize,
  input: NewImport,
  read: (store: ImportStore) => Promise<ImportContent>,
): Promise<ImportRow> {
  return sequelize.transaction(async (transaction) => {
    const query = queryOf(sequelize, transaction);
    await query(
      `INSERT INTO imports (id, account_id, kind, format, file_name, size_bytes, idempotency_key, request_hash, workflow_id, columns, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, '[]', $10)`,
      [
        input.id,
        input.accountId,
        input.kind,
        input.format,
        input.fileName,
        input.sizeBytes,
        input.idempotencyKey,
        input.requestHash,
        importWorkflowId(input.id),
        input.requestId,
      ],
    );
    await savepoint(query, CONTENT);
    const store: ImportStore = {
      storeChunk: async (chunk) => {
        const batchId = await insertChunkBatch(
          sequelize,
          {
            accountId: input.accountId,
            idempotencyKey: chunkBatchKey(input.id, chunk.seq),
            events: chunk.events,
            requestId: input.requestId,
          },
          transaction,
        );
        await recordImportBatch(sequelize, input.id, { ...chunk, batchId }, null, transaction);
      },
      storeFile: async (contentPath) => {
        let seq = 0;
        for await (const data of fs.createReadStream(contentPath, { highWaterMark: CHUNK_BYTES })) {
          await query('INSERT INTO import_chunks (import_id, seq, data) VALUES ($1, $2, $3)', [
            input.id,
            seq++,
            data as Buffer,
          ]);
        }
      },
    };
    const content = await read(store);
    if (content.errors) await rollbackToSavepoint(query, CONTENT);
    const [row] = await query<ImportRow>(
      'UPDATE imports SET columns = $2, rows_read = $3, refused = $4, errors = $5 WHERE id = $1 RETURNING *',
      [
        input.id,
        JSON.stringify(content.columns),
        content.rowsRead,
        content.errors !== null,
        content.errors === null ? null : JSON.stringify(content.errors),
      ],
    );
    return row;
  });
}

export async function findImport(
  sequelize: Sequelize,
  where: { accountId: string; id?: string; idempotencyKey?: string },
  transaction?: Transaction,
): Promise<ImportRow | null> {
  return rowOf(sequelize, transaction)<ImportRow>(
    `SELECT * FROM imports WHERE account_id = $1 AND ${where.id ? 'id' : 'idempotency_key'} = $2`,
    [where.accountId, where.id || where.idempotencyKey],
  );
}

/** The stored file, read back one chunk per statement: the worker holds one chunk at a time. */
export function importFile(sequelize: Sequelize, importId: string): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let seq = 0; ; seq++) {
      const chunk = await rowOf(sequelize)<{ data: Buffer }>(
        'SELECT data FROM import_chunks WHERE import_id = $1 AND seq = $2',
        [importId, seq],
      );
      if (!chunk) return;
      yield chunk.data;
    }
  }
  return Readable.from(chunks());
}

/** Where each record of a chunk's batch came from: its first row and the row of each list element. */
export interface Provenance {
  row: number;
  lists: Record<string, number[]>;
}

/** A chunk as its import records it: without its events, with its batch (none for locations or products). */
type ImportBatch = Omit<ChunkOfEvents, 'events'> & { batchId: string | null };

/** A chunk's batch, once: an activity run again after a crash finds it recorded and the batch the same. */
export async function recordImportBatch(
  sequelize: Sequelize,
  importId: string,
  batch: ImportBatch,
  outcome: { status: 'Completed' | 'Failed'; records: number; errors: RowError[] | null } | null = null,
  transaction?: Transaction,
): Promise<void> {
  await executeOf(sequelize, transaction)(
    `INSERT INTO import_batches (import_id, seq, batch_id, first_row, last_row, provenance, status, records, errors)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (import_id, seq) DO NOTHING`,
    [
      importId,
      batch.seq,
      batch.batchId,
      batch.firstRow,
      batch.lastRow,
      JSON.stringify(batch.provenance),
      outcome?.status ?? null,
      outcome?.records ?? null,
      outcome?.errors ? JSON.stringify(outcome.errors) : null,
    ],
  );
}

/** The chunks of a master-data import stored so far: a run again after a crash goes on after them. */
export async function recordedChunks(sequelize: Sequelize, importId: string): Promise<Set<number>> {
  const rows = await queryOf(sequelize)<{ seq: number }>('SELECT seq FROM import_batches WHERE import_id = $1', [
    importId,
  ]);
  return new Set(rows.map((r) => r.seq));
}

/**
 * The import failed before all its chunks were stored and started: recorded with the reason, and the
 * chunks' batches stored so far (Accepted, never started) recorded Failed in the same transaction, so the
 * reconciler never starts them and nothing of the import is stored. False if it was split or failed already.
 */
export async function recordImportFailed(sequelize: Sequelize, importId: string, reason: string): Promise<boolean> {
  return sequelize.transaction(async (transaction) => {
    const execute = executeOf(sequelize, transaction);
    const failed = await execute(
      'UPDATE imports SET failed_at = now(), failure = $2 WHERE id = $1 AND split_at IS NULL AND failed_at IS NULL',
      [importId, reason],
    );
    if (!failed) return false;
    const notRun = internalError(`Not run: import ${importId} failed before its batches were started.`);
    await execute(
      // By the chunks' Idempotency-Key too: a batch stored by an attempt that died before it recorded the chunk.
      `UPDATE batches SET status = 'Failed', errors = $2::jsonb, completed_at = now()
        WHERE status = 'Accepted'
          AND (id IN (SELECT batch_id FROM import_batches WHERE import_id = $1)
               OR (account_id = (SELECT account_id FROM imports WHERE id = $1) AND idempotency_key LIKE 'import-' || $1 || '-%'))`,
      [importId, JSON.stringify([notRun])],
    );
    return true;
  });
}

/** An import the reconciler looks at: stored, never split nor failed. */
export type UnsplitImport = Pick<
  ImportRow,
  'id' | 'account_id' | 'workflow_id' | 'kind' | 'rows_read' | 'file_name'
> & {
  account_name: string;
  request_id: string | null;
};

/**
 * Imports stored longer than `olderThanSeconds` ago whose chunks no workflow took up (split_at: split, or
 * taken from the upload's batches) and not failed: at most `limit`, oldest first.
 */
export const findUnsplitImports = (
  sequelize: Sequelize,
  olderThanSeconds: number,
  limit: number,
): Promise<UnsplitImport[]> =>
  queryOf(sequelize)<UnsplitImport>(
    `SELECT i.id, i.account_id, a.name AS account_name, i.workflow_id, i.kind, i.rows_read, i.file_name, i.request_id
       FROM imports i JOIN accounts a ON a.id = i.account_id
      WHERE i.split_at IS NULL AND i.failed_at IS NULL AND NOT i.refused
        AND i.submitted_at < now() - make_interval(secs => $1)
      ORDER BY i.seq
      LIMIT $2`,
    [olderThanSeconds, limit],
  );

/**
 * The import's workflow takes over the batches its upload stored: they are returned in order and the import
 * marked split, so the reconciler leaves it to the workflow. Null when the upload stored the file alone (an
 * import of locations or products, or an upload by an earlier version): the split step reads it.
 */
export async function takeStoredChunks(sequelize: Sequelize, importId: string): Promise<StoredChunk[] | null> {
  const chunks = await queryOf(sequelize)<StoredChunk>(
    `SELECT ib.seq, ib.batch_id AS "batchId", b.workflow_id AS "workflowId", b.event_count AS "eventCount"
       FROM import_batches ib JOIN batches b ON b.id = ib.batch_id
      WHERE ib.import_id = $1 ORDER BY ib.seq`,
    [importId],
  );
  if (!chunks.length) return null;
  await markSplit(sequelize, importId);
  return chunks;
}

/** A chunk's batch as its import's workflow starts it. */
export interface StoredChunk {
  seq: number;
  batchId: string;
  workflowId: string;
  eventCount: number;
}

export async function markSplit(sequelize: Sequelize, importId: string): Promise<void> {
  await executeOf(sequelize)('UPDATE imports SET split_at = coalesce(split_at, now()) WHERE id = $1', [importId]);
}

export interface ImportBatchView {
  seq: number;
  /** Null for a chunk of locations or products (stored without a batch). */
  batch_id: string | null;
  first_row: number;
  last_row: number;
  status: BatchStatus;
  event_count: number;
  /** Only of a Failed batch: what the errors are mapped back with. */
  provenance: Provenance[] | null;
  errors: { index: number | null; field: string | null; code: string; message: string }[] | null;
  events: Record<string, unknown>[] | null;
  /** A master-data chunk's errors, already on their rows. */
  row_errors: RowError[] | null;
}

/**
 * The batches of each of these imports, in order, by import id. With `events` false a failed batch's
 * stored events (up to 1,000 of them) are left unread: a list needs only counts.
 */
export async function importBatches(
  sequelize: Sequelize,
  importIds: string[],
  events = true,
): Promise<Map<string, ImportBatchView[]>> {
  if (!importIds.length) return new Map();
  const rows = await queryOf(sequelize)<ImportBatchView & { import_id: string }>(
    `SELECT ib.import_id, ib.seq, ib.batch_id, ib.first_row, ib.last_row, coalesce(b.status, ib.status) AS status, coalesce(b.event_count, ib.records) AS event_count,
            CASE WHEN b.status = 'Failed' THEN ib.provenance END AS provenance,
            CASE WHEN b.status = 'Failed' THEN b.errors END AS errors,
            CASE WHEN b.status = 'Failed' AND $2::boolean THEN b.request->'Events' END AS events,
            ib.errors AS row_errors
       FROM import_batches ib LEFT JOIN batches b ON b.id = ib.batch_id
      WHERE ib.import_id = ANY($1::uuid[]) ORDER BY ib.import_id, ib.seq`,
    [importIds, events],
  );
  const byImport = new Map<string, ImportBatchView[]>(importIds.map((id) => [id, []]));
  for (const { import_id, ...batch } of rows) byImport.get(import_id)!.push(batch);
  return byImport;
}

/** The account's imports, newest first. */
export const listImports = (sequelize: Sequelize, accountId: string, page: PageRequest) =>
  pageOfRows<ImportRow>(
    queryOf(sequelize),
    'SELECT * FROM imports WHERE account_id = $1 ORDER BY seq DESC OFFSET $2 LIMIT $3',
    'SELECT count(*) AS n FROM imports WHERE account_id = $1',
    [accountId],
    page,
  );
