import type { Sequelize } from 'sequelize';
import type { BatchMode } from '../models';
import { queryOf } from '../sql';

/** A batch the reconciler looks at: what starting its workflow takes, and its status. */
export interface StrandedBatch {
  id: string;
  account_id: string;
  account_name: string;
  workflow_id: string;
  event_count: number;
  request_id: string | null;
  mode: BatchMode;
  retry_of: string | null;
  status: 'Accepted' | 'Running';
}

/**
 * Batches `Accepted` (submitted) or `Running` (started) longer than `olderThanSeconds` ago, but for the
 * chunks of an import whose workflow has not taken them yet (the reconciler starts that import): at most
 * `limit`, Accepted before Running (batches whose steps keep failing stay Running and must not crowd out
 * the ones never started), oldest first.
 */
export const findStrandedBatches = (
  sequelize: Sequelize,
  olderThanSeconds: number,
  limit: number,
): Promise<StrandedBatch[]> =>
  queryOf(sequelize)<StrandedBatch>(
    `SELECT b.id, b.account_id, a.name AS account_name, b.workflow_id, b.event_count, b.request_id, b.mode, b.retry_of, b.status
       FROM batches b JOIN accounts a ON a.id = b.account_id
      WHERE (b.status = 'Accepted' AND b.submitted_at < now() - make_interval(secs => $1)
             -- A chunk its upload stored is its import's to start, as its child, once the import's workflow runs.
             AND NOT EXISTS (SELECT 1 FROM import_batches ib JOIN imports i ON i.id = ib.import_id
                              WHERE ib.batch_id = b.id AND i.split_at IS NULL AND i.failed_at IS NULL))
         OR (b.status = 'Running' AND b.started_at < now() - make_interval(secs => $1))
      ORDER BY b.status = 'Running', b.seq
      LIMIT $2`,
    [olderThanSeconds, limit],
  );
