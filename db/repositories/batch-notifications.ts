import type { Sequelize, Transaction } from 'sequelize';
import { executeOf, preparedQueryOf, queryOf } from '../sql';
import { COMPLETE_RESULTS, completeUpdate, recordBatchCompleted } from './batch-pipeline';
import { STREAM_SUBSCRIBED, oweStreamReports, scheduledBacklogSql, subscriptionsLock } from './epcis-queries';
import { endpointsOwed, oweBatchNotifications, oweBatchNotificationsSql } from './webhooks';

/** Waits for a subscription of the batch's account being created: its statements then see it (subscriptionsLock). */
const lockSubscriptions = (sequelize: Sequelize, batchId: string, transaction: Transaction) =>
  queryOf(sequelize, transaction)(
    `SELECT ${subscriptionsLock('account_id::text', 'completion')} FROM batches WHERE id = $1`,
    [batchId],
  );

/** A batch's final status written: what the write answered, and the endpoints to wake after the commit. */
export interface Finished<T> {
  result: T;
  owed: string[];
}

/**
 * Runs `finish` (the statement that writes a batch's final status) in a transaction that also owes the
 * batch's webhook notifications and its EPCIS stream subscriptions' reports. Answers with what `finish`
 * returned and the endpoints still owed a notification of the batch, to be woken after the commit: also
 * when `finish` changed nothing, so a caller that died between its commit and the wake-up, run again,
 * wakes what the first run did not.
 */
export async function finishBatch<T>(
  sequelize: Sequelize,
  batchId: string,
  finish: (transaction: Transaction) => Promise<T>,
): Promise<Finished<T>> {
  const result = await sequelize.transaction(async (transaction) => {
    await lockSubscriptions(sequelize, batchId, transaction);
    const finished = await finish(transaction);
    await oweBatchNotifications(sequelize, batchId, transaction);
    await oweStreamReports(sequelize, batchId, transaction);
    return finished;
  });
  return { result, owed: await endpointsOwed(sequelize, `batch:${batchId}`) };
}

/** A batch completed: whether this call completed it, and how many events of each type it stored. */
export interface Completion {
  changed: boolean;
  eventCounts: Record<string, number>;
}

/**
 * finishBatch's completion in one statement: the batch's result list and status, its webhook
 * notifications and its scheduled subscriptions' backlog, the endpoints owed (those owed now and before,
 * as finishBatch answers) and its event counts (a batch's events never change after persist). A stream
 * subscription's report is built in code (oweStreamReports): the statement leaves the batch of such an
 * account alone, and finishBatch completes it.
 */
const COMPLETE_AND_OWE = `
  WITH ${COMPLETE_RESULTS},
  streams AS (SELECT ${STREAM_SUBSCRIBED} AS subscribed),
  done AS (${completeUpdate('SELECT subscribed FROM streams')} RETURNING id, account_id, status, mode, event_count, errors),
  owed AS (${oweBatchNotificationsSql('done')} RETURNING endpoint_id),
  backlog AS (${scheduledBacklogSql('done')})
  SELECT (SELECT subscribed FROM streams) AS subscribed,
         EXISTS (SELECT 1 FROM done) AS changed,
         ARRAY(SELECT endpoint_id FROM owed
               UNION SELECT endpoint_id FROM webhook_deliveries WHERE source_key = 'batch:' || $1::text AND status = 'Pending') AS owed,
         (SELECT coalesce(json_object_agg(type, n), '{}') FROM (SELECT type, count(*) AS n FROM events WHERE batch_id = $1 GROUP BY type) c) AS "eventCounts"`;

/** Completes the batch with its result list, owing what its completion owes: one statement, for most accounts. */
export async function completeBatch(
  sequelize: Sequelize,
  batchId: string,
  documentsNotAttached: Readonly<Record<string, readonly object[]>>,
): Promise<Finished<Completion>> {
  const row = await sequelize.transaction(async (transaction) => {
    await lockSubscriptions(sequelize, batchId, transaction);
    const [completed] = await preparedQueryOf(sequelize, transaction)<
      Completion & { subscribed: boolean; owed: string[] }
    >(COMPLETE_AND_OWE, [batchId, JSON.stringify(documentsNotAttached)]);
    return completed;
  });
  if (!row.subscribed) return { result: { changed: row.changed, eventCounts: row.eventCounts }, owed: row.owed };
  const { result: changed, owed } = await finishBatch(sequelize, batchId, async (transaction) => {
    const completed = await recordBatchCompleted(sequelize, batchId, documentsNotAttached, transaction);
    // Only the call that completes the batch: a retried one would add it again after a run took it.
    if (completed) await executeOf(sequelize, transaction)(scheduledBacklogSql('batches'), [batchId]);
    return completed;
  });
  return { result: { changed, eventCounts: row.eventCounts }, owed };
}
