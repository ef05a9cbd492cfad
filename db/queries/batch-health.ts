import type { Sequelize } from 'sequelize';
import { queryOf } from '../sql';

/** What the batch gauges of /metrics show (runtime/metrics.ts registerBatchGauges). */
export interface BatchHealth {
  failed: { account: string; code: string; count: number }[];
  oldestPendingSeconds: number;
}

/**
 * Failed batches that still want someone's attention: failed in the last 24 hours (older ones were
 * dealt with another way, or will not be: an alert must be able to clear), not retried yet, and not a
 * failed retry of a batch that a later retry completed. Grouped by account and first error code.
 */
const FAILED = `
  SELECT a.name AS account, coalesce(b.errors -> 0 ->> 'code', 'Unknown') AS code, count(*)::int AS count
    FROM batches b JOIN accounts a ON a.id = b.account_id
   WHERE b.status = 'Failed' AND b.completed_at > now() - interval '24 hours'
     AND NOT EXISTS (SELECT 1 FROM batches r WHERE r.retry_of = b.id)
     AND NOT (b.retry_of IS NOT NULL AND EXISTS (SELECT 1 FROM batches r WHERE r.retry_of = b.retry_of AND r.status = 'Completed'))
   GROUP BY 1, 2`;

const OLDEST_PENDING = `
  SELECT coalesce(extract(epoch FROM now() - min(submitted_at)), 0)::float8 AS seconds
    FROM batches WHERE status IN ('Accepted', 'Running')`;

export async function batchHealth(sequelize: Sequelize): Promise<BatchHealth> {
  const query = queryOf(sequelize);
  const [failed, [oldest]] = await Promise.all([
    query<{ account: string; code: string; count: number }>(FAILED, []),
    query<{ seconds: number }>(OLDEST_PENDING, []),
  ]);
  return { failed, oldestPendingSeconds: Math.floor(oldest?.seconds ?? 0) };
}
