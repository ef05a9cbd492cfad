import { QueryTypes } from 'sequelize';
import { batchesCompleted, batchesFailed, eventsPersisted } from '../runtime/metrics';
import type { BatchStatusUpdate } from '../workflows/contracts';
import { withBatchWebhooks } from './batch-webhooks';
import type { ActivityDeps } from './deps';

/**
 * The per-event result list (SPEC.md's result element), built in SQL from the stored rows and written to
 * the batch in the same statement: the list never travels through the worker or the workflow history.
 * Transform reports its inputs, then its outputs; aggregation its children. $2 holds each event's
 * documentsNotAttached by event id.
 */
const COMPLETE = `
  WITH ordered AS (
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
  )
  UPDATE batches
     SET status = 'Completed', errors = NULL, completed_at = now(),
         result = (SELECT coalesce(json_agg(result ORDER BY position), '[]'::json) FROM results)::jsonb
   WHERE id = $1 AND status <> 'Completed'`;

/**
 * Records how a batch ended on its batches row (what support, the sync answer and
 * GET /Integration/Events/async/{id} read); persistEvents marks it Running. A finished batch is never
 * moved back, so a replayed or retried update changes nothing.
 */
export function recordBatchStatus(deps: ActivityDeps) {
  return async (update: BatchStatusUpdate): Promise<void> => {
    const { sequelize } = deps;
    switch (update.status) {
      case 'Completed': {
        const [, changed] = await withBatchWebhooks(deps, update.batchId, (transaction) =>
          sequelize.query(COMPLETE, { bind: [update.batchId, JSON.stringify(update.documentsNotAttached)], type: QueryTypes.UPDATE, transaction }),
        );
        // Counted on the one update that finished the batch, so a retried step counts nothing twice.
        if (!changed) return;
        batchesCompleted.inc();
        const types = await sequelize.query<{ type: string; n: string }>('SELECT type, count(*) AS n FROM events WHERE batch_id = $1 GROUP BY type', {
          bind: [update.batchId],
          type: QueryTypes.SELECT,
        });
        for (const { type, n } of types) eventsPersisted.inc({ type: type.toLowerCase() }, Number(n));
        return;
      }
      case 'Failed': {
        const [, changed] = await withBatchWebhooks(deps, update.batchId, (transaction) =>
          sequelize.query(
            `UPDATE batches SET status = 'Failed', errors = $2::jsonb, completed_at = now() WHERE id = $1 AND status NOT IN ('Completed', 'Failed')`,
            { bind: [update.batchId, JSON.stringify(update.errors)], type: QueryTypes.UPDATE, transaction },
          ),
        );
        if (changed) batchesFailed.inc({ reason: update.errors[0]?.code ?? 'InternalError' });
        return;
      }
    }
  };
}
