import { completeBatch, finishBatch } from '../db/repositories/batch-notifications';
import { recordBatchFailed } from '../db/repositories/batch-pipeline';
import { batchesCompleted, batchesFailed, eventsPersisted } from '../platform/metrics';
import type { BatchStatusUpdate } from '../pipeline/contracts';
import { withBatchWebhooks } from './batch-webhooks';
import type { ActivityDeps } from './deps';

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
        // Counted on the one update that finished the batch, so a retried step counts nothing twice.
        const { changed, eventCounts } = await withBatchWebhooks(
          deps,
          completeBatch(sequelize, update.batchId, update.documentsNotAttached),
        );
        if (!changed) return;
        batchesCompleted.inc();
        for (const [type, count] of Object.entries(eventCounts))
          eventsPersisted.inc({ type: type.toLowerCase() }, count);
        return;
      }
      case 'Failed': {
        const changed = await withBatchWebhooks(
          deps,
          finishBatch(sequelize, update.batchId, (transaction) =>
            recordBatchFailed(sequelize, update.batchId, update.errors, transaction),
          ),
        );
        if (changed) batchesFailed.inc({ reason: update.errors[0]?.code ?? 'InternalError' });
        return;
      }
    }
  };
}
