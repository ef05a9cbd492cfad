import type { Sequelize } from 'sequelize';
import type { BatchHealth } from '../../platform/metrics';
import { ALL_EVENTS_STORED, FAILED_IMPORT_OF } from '../repositories/batches';
import { queryOf } from '../sql';

/**
 * Failed batches that still want someone's attention: failed in the last 24 hours (older ones were
 * dealt with another way, or will not be: an alert must be able to clear), not retried yet (a failed
 * retry stands for them), not abandoned, not refused in the answer to the sync call that sent them (its
 * caller has the errors), not replaced (their events stored since, by a retry or a
 * new batch), and not a batch a failed import never ran (the import says it failed). Grouped by
 * account and first error code. The replaced check reads failed_event_ids, not the stored request, and
 * probes the events index only for these few rows.
 */
const FAILED = `
  SELECT a.name AS account, coalesce(b.errors -> 0 ->> 'code', 'Unknown') AS code, count(*)::int AS count
    FROM batches b JOIN accounts a ON a.id = b.account_id
   WHERE b.status = 'Failed' AND b.completed_at > now() - interval '24 hours' AND b.abandoned_at IS NULL
     AND b.refusal_answered_at IS NULL
     AND NOT EXISTS (SELECT 1 FROM batches r WHERE r.retry_of = b.id)
     AND NOT ${ALL_EVENTS_STORED('b')}
     AND NOT EXISTS (${FAILED_IMPORT_OF('b')})
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
