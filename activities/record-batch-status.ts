import type { BatchStatusUpdate } from '../workflows/contracts';
import type { ActivityDeps } from './deps';

/**
 * Keeps the batches row (what support and GET /Integration/Events/async/{id} read) in step with the
 * workflow. A finished batch is never moved back, so a replayed or retried update changes nothing.
 */
export function recordBatchStatus(deps: ActivityDeps) {
  return async (update: BatchStatusUpdate): Promise<void> => {
    const { sequelize } = deps;
    switch (update.status) {
      case 'Running':
        await sequelize.query(
          `UPDATE batches SET status = 'Running', started_at = coalesce(started_at, now()) WHERE id = $1 AND status IN ('Accepted', 'Running')`,
          { bind: [update.batchId] },
        );
        return;
      case 'Completed':
        await sequelize.query(
          `UPDATE batches SET status = 'Completed', result = $2::jsonb, errors = NULL, completed_at = now() WHERE id = $1 AND status <> 'Completed'`,
          { bind: [update.batchId, JSON.stringify(update.result)] },
        );
        return;
      case 'Failed':
        await sequelize.query(
          `UPDATE batches SET status = 'Failed', errors = $2::jsonb, completed_at = now() WHERE id = $1 AND status <> 'Completed'`,
          { bind: [update.batchId, JSON.stringify(update.errors)] },
        );
        return;
    }
  };
}
