import type { Sequelize, Transaction } from 'sequelize';
import type { BatchError } from '../../domain/batch-errors';
import type { EventPayload } from '../../domain/events';
import { executeOf, type Query } from '../sql';

/**
 * The batches row as the pipeline moves it: Accepted → Running (persistEvents, with the events) →
 * Completed or Failed (persistEvents' refusal, or recordBatchStatus). Each write says which statuses it
 * moves from, so a retried or replayed step changes nothing a finished batch holds.
 */

/**
 * The stored request as the pipeline reads it: the events, and the problems the API found translating a
 * request of another shape (POST /Integration/JSON), named as that request names its fields.
 */
export interface StoredBatchRequest {
  Events: EventPayload[];
  Issues?: BatchError[];
  /** An EPCIS capture's: the company prefixes its events spell out in EPC URNs (their originals are stored apart). */
  EpcisCompanyPrefixes?: string[];
}

/** What the batch's stored events say about it: the answer of a persist step that committed them. */
export interface StoredBatchSummary {
  events: number;
  documents: boolean;
  commissions: boolean;
}

/**
 * Marks the batch Running and returns its request, with the status it held before. The row's lock
 * queues concurrent attempts of the persist step (a heartbeat timeout can start a second one while the
 * first still runs); the status read under the lock tells whether an earlier attempt committed. Null:
 * the batch is not the account's, or is neither Accepted nor Running.
 */
export async function markBatchRunning(
  query: Query,
  batchId: string,
  accountId: string,
): Promise<{ request: StoredBatchRequest; previous: 'Accepted' | 'Running' } | null> {
  const [row] = await query<{ request: StoredBatchRequest; previous: 'Accepted' | 'Running' }>(
    `WITH previous AS (SELECT id, status FROM batches WHERE id = $1 AND account_id = $2 FOR UPDATE)
     UPDATE batches b SET status = 'Running', started_at = coalesce(b.started_at, now())
       FROM previous p
      WHERE b.id = p.id AND p.status IN ('Accepted', 'Running')
      RETURNING b.request, p.status AS previous`,
    [batchId, accountId],
  );
  return row ?? null;
}

/** What the batch's stored events are: nothing (`events: 0`) until a persist step committed them. */
export async function storedBatchSummary(query: Query, batchId: string): Promise<StoredBatchSummary> {
  const [row] = await query<{ events: string; documents: boolean; commissions: boolean }>(
    `SELECT count(*) AS events,
            coalesce(bool_or(jsonb_typeof(payload -> 'DocumentIds') = 'array' AND jsonb_array_length(payload -> 'DocumentIds') > 0), false) AS documents,
            coalesce(bool_or(type = 'Commission'), false) AS commissions
       FROM events WHERE batch_id = $1`,
    [batchId],
  );
  return { events: Number(row.events), documents: row.documents, commissions: row.commissions };
}

/** The error list of a Failed batch (null when it is not Failed, or has none). */
export async function failedBatchErrors(query: Query, batchId: string): Promise<BatchError[] | null> {
  const [row] = await query<{ status: string; errors: BatchError[] | null }>(
    'SELECT status, errors FROM batches WHERE id = $1',
    [batchId],
  );
  return row?.status === 'Failed' ? row.errors : null;
}

/** The persist step's refusal: Failed with its whole error list, in the transaction that checked it. */
export async function recordBatchRefusal(query: Query, batchId: string, errors: readonly BatchError[]): Promise<void> {
  await query(`UPDATE batches SET status = 'Failed', errors = $2::jsonb, completed_at = now() WHERE id = $1`, [
    batchId,
    JSON.stringify(errors),
  ]);
}

/** Each stored event's warnings, in batch order. */
export async function storeBatchWarnings(query: Query, batchId: string, warnings: readonly unknown[]): Promise<void> {
  await query('UPDATE batches SET warnings = $2::jsonb WHERE id = $1', [batchId, JSON.stringify(warnings)]);
}

/**
 * The per-event result list (SPEC.md's result element), built in SQL from the stored rows and written to
 * the batch in the same statement: the list never travels through the worker or the workflow history.
 * Transform reports its inputs, then its outputs; aggregation its children. $2 holds each event's
 * documentsNotAttached by event id.
 */
export const COMPLETE_RESULTS = `
  ordered AS (
    SELECT e.*, row_number() OVER (ORDER BY e.seq) - 1 AS position,
           (e.event_time AT TIME ZONE 'UTC') AS utc
      FROM events e WHERE e.batch_id = $1
  ), results AS (
    SELECT o.position, json_build_object(
             'id', o.id,
             'externalEventId', o.external_event_id,
             'type', o.type,
             'status', 'Created',
             'eventDate', to_char(o.utc, 'YYYY-MM-DD"T"HH24:MI:SS')
                          || CASE WHEN date_trunc('second', o.utc) = o.utc THEN '' ELSE to_char(o.utc, '.MS') END || '+00:00',
             'productInstances', coalesce((
               SELECT json_agg(json_build_object('productId', p.external_id, 'lotSerial', l.lot_serial, 'quantity', l.quantity)
                               ORDER BY array_position(ARRAY['instance', 'input', 'output', 'child'], l.role), l.position)
                 FROM event_lines l JOIN products p ON p.id = l.product_id
                WHERE l.event_id = o.id AND l.role <> 'parent'), '[]'::json),
             'documentsNotAttached', coalesce($2::jsonb -> o.id::text, 'null'::jsonb)
           ) AS result
      FROM ordered o
  )`;

/**
 * Completes batch $1 with the list COMPLETE_RESULTS builds, unless it has finished already or `unless`
 * holds: a Failed batch stays Failed (its batch.failed notification is its last word; a retry is a new batch).
 */
export const completeUpdate = (unless?: string): string => `
  UPDATE batches
     SET status = 'Completed', errors = NULL, completed_at = now(),
         result = (SELECT coalesce(json_agg(result ORDER BY position), '[]'::json) FROM results)::jsonb
   WHERE id = $1 AND status NOT IN ('Completed', 'Failed')${unless ? ` AND NOT (${unless})` : ''}`;

const COMPLETE = `WITH ${COMPLETE_RESULTS} ${completeUpdate()}`;

/** Completes the batch with its result list; false when it had finished already (nothing changed). */
export async function recordBatchCompleted(
  sequelize: Sequelize,
  batchId: string,
  documentsNotAttached: Readonly<Record<string, readonly object[]>>,
  transaction?: Transaction,
): Promise<boolean> {
  return (await executeOf(sequelize, transaction)(COMPLETE, [batchId, JSON.stringify(documentsNotAttached)])) > 0;
}

/** Fails the batch with these errors unless it finished already; false when nothing changed. */
export async function recordBatchFailed(
  sequelize: Sequelize,
  batchId: string,
  errors: readonly BatchError[],
  transaction?: Transaction,
): Promise<boolean> {
  const changed = await executeOf(sequelize, transaction)(
    `UPDATE batches SET status = 'Failed', errors = $2::jsonb, completed_at = now() WHERE id = $1 AND status NOT IN ('Completed', 'Failed')`,
    [batchId, JSON.stringify(errors)],
  );
  return changed > 0;
}
