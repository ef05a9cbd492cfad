import type { Sequelize, Transaction } from 'sequelize';
import { pageOfRows, type PageRequest } from '../page';
import { executeOf, queryOf, rowOf } from '../sql';
import type { WebhookEventType } from '../../domain/webhook-contracts';

export type WebhookDeliveryStatus = 'Pending' | 'Delivered' | 'Failed' | 'Cancelled';

export interface WebhookEndpointRow {
  id: string;
  account_id: string;
  url: string;
  events: WebhookEventType[];
  secret: string;
  created_at: Date;
  deleted_at: Date | null;
  failing_since: Date | null;
  failing_reason: string | null;
  account_name: string;
  pending: string;
}

export interface WebhookAttemptRow {
  attempted_at: Date;
  http_status: number | null;
  error: string | null;
  next_attempt_at: Date | null;
}

export interface WebhookDeliveryRow {
  id: string;
  endpoint_id: string;
  type: WebhookEventType;
  body: string;
  status: WebhookDeliveryStatus;
  created_at: Date;
  delivered_at: Date | null;
  attempts: WebhookAttemptRow[];
}

/** A delivery id is the Webhook-Id: `msg_` and 32 hex digits, made by PostgreSQL where the row is. */
export const NEW_DELIVERY_ID = `'msg_' || replace(gen_random_uuid()::text, '-', '')`;
const NOW_UTC = `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const ENDPOINT_COLUMNS = `w.*, (SELECT name FROM accounts WHERE id = w.account_id) AS account_name, (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = w.id AND d.status IN ('Pending', 'Failed')) AS pending`;

export async function createWebhookEndpoint(
  sequelize: Sequelize,
  endpoint: { id: string; accountId: string; url: string; events: readonly WebhookEventType[]; secret: string },
): Promise<WebhookEndpointRow> {
  const [row] = await queryOf(sequelize)<WebhookEndpointRow>(
    `WITH w AS (INSERT INTO webhook_endpoints (id, account_id, url, events, secret) VALUES ($1, $2, $3, $4, $5) RETURNING *)
     SELECT w.*, (SELECT name FROM accounts WHERE id = w.account_id) AS account_name, 0 AS pending FROM w`,
    [endpoint.id, endpoint.accountId, endpoint.url, endpoint.events, endpoint.secret],
  );
  return row;
}

/** 'all': every account's endpoints (a support key); otherwise one account's. */
export type WebhookScope = 'all' | { accountId: string };

export async function listWebhookEndpoints(
  sequelize: Sequelize,
  scope: WebhookScope,
  filter: { status?: 'Active' | 'Failing' },
  page: PageRequest,
): Promise<{ rows: WebhookEndpointRow[]; total: number }> {
  const conditions = [`w.deleted_at IS NULL`, `w.signing = 'standard-webhooks'`];
  const bind: unknown[] = [];
  if (scope !== 'all') conditions.push(`w.account_id = $${bind.push(scope.accountId)}`);
  if (filter.status)
    conditions.push(filter.status === 'Failing' ? 'w.failing_since IS NOT NULL' : 'w.failing_since IS NULL');
  const where = conditions.join(' AND ');
  return pageOfRows(
    queryOf(sequelize),
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints w JOIN accounts a ON a.id = w.account_id WHERE ${where}
      ORDER BY w.created_at, w.id OFFSET $${bind.length + 1} LIMIT $${bind.length + 2}`,
    `SELECT count(*) AS n FROM webhook_endpoints w WHERE ${where}`,
    bind,
    page,
  );
}

/** An endpoint of the account (null: none, another account's, or deleted). */
export async function findWebhookEndpoint(
  sequelize: Sequelize,
  accountId: string,
  id: string,
): Promise<WebhookEndpointRow | null> {
  return rowOf(sequelize)<WebhookEndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints w WHERE w.id = $1 AND w.account_id = $2 AND w.deleted_at IS NULL AND w.signing = 'standard-webhooks'`,
    [id, accountId],
  );
}

/** Deletes the endpoint; what it was still owed is cancelled, never sent. */
export async function deleteWebhookEndpoint(
  sequelize: Sequelize,
  accountId: string,
  id: string,
  outer?: Transaction,
): Promise<boolean> {
  return sequelize.transaction({ transaction: outer }, async (transaction) => {
    const execute = executeOf(sequelize, transaction);
    const deleted = await execute(
      'UPDATE webhook_endpoints SET deleted_at = now() WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL',
      [id, accountId],
    );
    if (deleted)
      await execute(
        `UPDATE webhook_deliveries SET status = 'Cancelled' WHERE endpoint_id = $1 AND status IN ('Pending', 'Failed')`,
        [id],
      );
    return deleted > 0;
  });
}

const DELIVERY_COLUMNS = `d.id, d.endpoint_id, d.type, d.body, d.status, d.created_at, d.delivered_at,
  coalesce((SELECT json_agg(json_build_object('attempted_at', a.attempted_at, 'http_status', a.http_status, 'error', a.error, 'next_attempt_at', a.next_attempt_at) ORDER BY a.id)
              FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]'::json) AS attempts`;

/** The endpoint's deliveries, newest first, each with its attempts. */
export async function listWebhookDeliveries(
  sequelize: Sequelize,
  endpointId: string,
  page: PageRequest,
): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
  return pageOfRows(
    queryOf(sequelize),
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.endpoint_id = $1 ORDER BY d.seq DESC OFFSET $2 LIMIT $3`,
    'SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1',
    [endpointId],
    page,
  );
}

export async function findWebhookDelivery(
  sequelize: Sequelize,
  endpointId: string,
  id: string,
): Promise<WebhookDeliveryRow | null> {
  return rowOf(sequelize)<WebhookDeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.endpoint_id = $1 AND d.id = $2`,
    [endpointId, id],
  );
}

/** Owes the delivery again (whatever became of it) and lifts the endpoint's failing mark, so its workflow resumes. */
export async function redeliverWebhook(sequelize: Sequelize, endpointId: string, id: string): Promise<void> {
  await sequelize.transaction(async (transaction) => {
    const execute = executeOf(sequelize, transaction);
    await execute(
      `UPDATE webhook_deliveries SET status = 'Pending', delivered_at = NULL WHERE endpoint_id = $1 AND id = $2`,
      [endpointId, id],
    );
    await execute('UPDATE webhook_endpoints SET failing_since = NULL, failing_reason = NULL WHERE id = $1', [
      endpointId,
    ]);
  });
}

/**
 * The INSERT that owes a batch.completed or batch.failed notification to each endpoint of batch $1's
 * account that asked for it, reading the batch's final row from `batches` (the table, or a statement's
 * RETURNING). Run again for the same batch it adds nothing.
 */
export const oweBatchNotificationsSql = (batches: string): string => `
  INSERT INTO webhook_deliveries (id, endpoint_id, type, source_key, body)
  SELECT ${NEW_DELIVERY_ID}, w.id, t.type, 'batch:' || b.id,
         json_build_object('type', t.type, 'timestamp', ${NOW_UTC}, 'data', json_build_object(
           'batchId', b.id, 'status', b.status, 'mode', b.mode, 'eventCount', b.event_count,
           'errors', coalesce(b.errors, '[]'::jsonb)))::text
    FROM ${batches} b
   CROSS JOIN LATERAL (SELECT CASE b.status WHEN 'Completed' THEN 'batch.completed' ELSE 'batch.failed' END AS type) t
    JOIN webhook_endpoints w ON w.account_id = b.account_id AND w.deleted_at IS NULL AND t.type = ANY (w.events)
   WHERE b.id = $1 AND b.status IN ('Completed', 'Failed')
  ON CONFLICT (endpoint_id, source_key) DO NOTHING`;

/** oweBatchNotificationsSql in the caller's transaction, the one that wrote the batch's final status. */
export async function oweBatchNotifications(
  sequelize: Sequelize,
  batchId: string,
  transaction: Transaction,
): Promise<void> {
  await executeOf(sequelize, transaction)(oweBatchNotificationsSql('batches'), [batchId]);
}

/**
 * Owes one notification to each endpoint of the account that asked for `type`. `sourceKey` names the
 * cause (a recall notice, an acknowledgement), so the same cause is owed once per endpoint.
 */
export async function oweAccountNotification(
  sequelize: Sequelize,
  notice: { accountId: string; type: WebhookEventType; sourceKey: string; data: unknown },
  transaction: Transaction,
): Promise<string[]> {
  const rows = await queryOf(sequelize, transaction)<{ endpoint_id: string }>(
    `INSERT INTO webhook_deliveries (id, endpoint_id, type, source_key, body)
     SELECT ${NEW_DELIVERY_ID}, w.id, $2, $3, json_build_object('type', $2::text, 'timestamp', ${NOW_UTC}, 'data', $4::json)::text
       FROM webhook_endpoints w WHERE w.account_id = $1 AND w.deleted_at IS NULL AND $2 = ANY (w.events)
     ON CONFLICT (endpoint_id, source_key) DO NOTHING
     RETURNING endpoint_id`,
    [notice.accountId, notice.type, notice.sourceKey, JSON.stringify(notice.data)],
  );
  return rows.map((r) => r.endpoint_id);
}

/** Endpoints still owed a notification of this cause (`batch:<id>`): their workflows are woken after the commit. */
export async function endpointsOwed(sequelize: Sequelize, sourceKey: string): Promise<string[]> {
  const rows = await queryOf(sequelize)<{ endpoint_id: string }>(
    `SELECT DISTINCT endpoint_id FROM webhook_deliveries WHERE source_key = $1 AND status = 'Pending'`,
    [sourceKey],
  );
  return rows.map((r) => r.endpoint_id);
}

/** What an endpoint's workflow does next: deliver the oldest owed delivery, wait (nothing owed, or failing), or stop (deleted). */
export type NextWebhookDelivery = { kind: 'deliver'; deliveryId: string } | { kind: 'wait' } | { kind: 'gone' };

export async function nextWebhookDelivery(sequelize: Sequelize, endpointId: string): Promise<NextWebhookDelivery> {
  const [endpoint] = await queryOf(sequelize)<
    Pick<WebhookEndpointRow, 'deleted_at' | 'failing_since'> & { next: string | null }
  >(
    `SELECT w.deleted_at, w.failing_since,
            (SELECT d.id FROM webhook_deliveries d WHERE d.endpoint_id = w.id AND d.status = 'Pending' ORDER BY d.seq LIMIT 1) AS next
       FROM webhook_endpoints w WHERE w.id = $1`,
    [endpointId],
  );
  if (!endpoint || endpoint.deleted_at) return { kind: 'gone' };
  if (endpoint.failing_since || !endpoint.next) return { kind: 'wait' };
  return { kind: 'deliver', deliveryId: endpoint.next };
}

/** What the delivery activity sends: null when the delivery is no longer owed (done, cancelled, endpoint deleted). */
export interface OwedDelivery {
  url: string;
  secret: string;
  body: string;
  signing: 'standard-webhooks' | 'gs1';
}

export async function owedDelivery(sequelize: Sequelize, deliveryId: string): Promise<OwedDelivery | null> {
  return rowOf(sequelize)<OwedDelivery>(
    `SELECT w.url, w.secret, d.body, w.signing FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
      WHERE d.id = $1 AND d.status = 'Pending' AND w.deleted_at IS NULL`,
    [deliveryId],
  );
}

export async function recordWebhookAttempt(
  sequelize: Sequelize,
  deliveryId: string,
  attempt: { httpStatus: number | null; error: string | null; nextAttemptAt: Date | null; delivered: boolean },
): Promise<void> {
  await sequelize.transaction(async (transaction) => {
    const execute = executeOf(sequelize, transaction);
    await execute(
      'INSERT INTO webhook_attempts (delivery_id, http_status, error, next_attempt_at) VALUES ($1, $2, $3, $4)',
      [deliveryId, attempt.httpStatus, attempt.error, attempt.nextAttemptAt],
    );
    if (attempt.delivered)
      await execute(
        `UPDATE webhook_deliveries SET status = 'Delivered', delivered_at = now() WHERE id = $1 AND status = 'Pending'`,
        [deliveryId],
      );
  });
}

/**
 * Retries ran out: the delivery is Failed, the endpoint failing until a redelivery; later deliveries stay
 * Pending. The reason is the last attempt's own error when one was recorded: when an attempt outlasts the
 * retry window, Temporal's failure says only that it gave up ("Not enough time to schedule next retry").
 */
export async function markWebhookFailing(
  sequelize: Sequelize,
  endpointId: string,
  deliveryId: string,
  reason: string,
): Promise<void> {
  await sequelize.transaction(async (transaction) => {
    const execute = executeOf(sequelize, transaction);
    await execute(`UPDATE webhook_deliveries SET status = 'Failed' WHERE id = $1 AND status = 'Pending'`, [deliveryId]);
    // The last attempt's next try was foreseen from the retry policy when it was recorded; Temporal, which
    // decides a moment later on its own clock, may have found no time left for one near the end.
    await execute(
      `UPDATE webhook_attempts SET next_attempt_at = NULL
        WHERE id = (SELECT max(id) FROM webhook_attempts WHERE delivery_id = $1)`,
      [deliveryId],
    );
    await execute(
      `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, now()),
              failing_reason = coalesce((SELECT error FROM webhook_attempts WHERE delivery_id = $3 ORDER BY id DESC LIMIT 1), $2)
        WHERE id = $1`,
      [endpointId, reason, deliveryId],
    );
  });
}
