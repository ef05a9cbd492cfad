import type { Sequelize, Transaction } from 'sequelize';
import type { CheckLevel, LotAnswer, RecallDepth, ShippedLot } from '../../domain/recall-strategy';
import { pageOfRows, type PageRequest } from '../page';
import type { LotStart, RecallConsignee, RecallNoticeBody } from '../queries/recall-reach';
import { resolveIds } from '../queries/inventory';
import { executeOf, queryOf, rowOf } from '../sql';
import { oweAccountNotification } from './webhooks';

export interface RecallRow {
  id: string;
  issuer_account_id: string;
  issuer_name: string;
  product_id: string;
  product_external_id: string;
  lot_serial: string;
  reason: string;
  created_at: Date;
  depth: RecallDepth;
  check_level: CheckLevel;
  check_percent: string;
  remind_every_seconds: number;
  overdue_after_reminders: number;
  closed_at: Date | null;
  close_reason: string | null;
  closed_level_met: boolean | null;
}

export interface NoticeRow extends RecallRow {
  holder_account_id: string;
  holder_name: string;
  notice: RecallNoticeBody;
  received_lots: string[];
  notified_at: Date;
  acknowledged_at: Date | null;
  quantity_on_hand: string | null;
  action: string | null;
  tier: number;
  via_name: string | null;
  sources: LotStart[];
  shipped: ShippedLot[];
  lot_answers: LotAnswer[] | null;
  passed_on_at: Date | null;
  reminded_at: Date[];
  overdue_at: Date | null;
}

export interface RecallStrategy {
  depth: RecallDepth;
  checkLevel: CheckLevel;
  checkPercent: number;
  remindEverySeconds: number;
  overdueAfterReminders: number;
}

const RECALL_COLUMNS = `r.id, r.issuer_account_id, ia.name AS issuer_name, r.product_id, p.external_id AS product_external_id, r.lot_serial, r.reason, r.created_at,
  r.depth, r.check_level, r.check_percent, r.remind_every_seconds, r.overdue_after_reminders, r.closed_at, r.close_reason, r.closed_level_met`;
const RECALL_FROM = 'recalls r JOIN accounts ia ON ia.id = r.issuer_account_id JOIN products p ON p.id = r.product_id';
const NOTICE_FROM = `recall_notices n JOIN recalls r ON r.id = n.recall_id JOIN accounts ia ON ia.id = r.issuer_account_id
  JOIN accounts ha ON ha.id = n.holder_account_id JOIN products p ON p.id = r.product_id LEFT JOIN accounts va ON va.id = n.via_account_id`;
const NOTICE_COLUMNS = `${RECALL_COLUMNS}, n.holder_account_id, ha.name AS holder_name, n.notice, n.received_lots, n.created_at AS notified_at,
  n.acknowledged_at, n.quantity_on_hand, n.action, n.tier, va.name AS via_name, n.sources, n.shipped, n.lot_answers, n.passed_on_at,
  n.reminded_at, n.overdue_at`;

/** Owes notifications in `transaction`, gathering the endpoints owed one (to wake after the commit). */
function notifications(sequelize: Sequelize, transaction: Transaction) {
  const endpoints: string[] = [];
  const owe = async (notice: Parameters<typeof oweAccountNotification>[1]) => {
    endpoints.push(...(await oweAccountNotification(sequelize, notice, transaction)));
  };
  return { endpoints, owe };
}

/** Inserts a notice per consignee and owes each consignee's webhooks a recall.received, in the caller's transaction. */
async function insertNotices(
  sequelize: Sequelize,
  recallId: string,
  tier: number,
  consignees: RecallConsignee[],
  noticeData: (consignee: RecallConsignee) => unknown,
  transaction: Transaction,
): Promise<string[]> {
  const { endpoints, owe } = notifications(sequelize, transaction);
  for (const consignee of consignees) {
    const inserted = await executeOf(sequelize, transaction)(
      `INSERT INTO recall_notices (recall_id, holder_account_id, notice, received_lots, tier, via_account_id, sources, shipped)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (recall_id, holder_account_id) DO NOTHING`,
      [
        recallId,
        consignee.accountId,
        JSON.stringify(consignee.notice),
        consignee.receivedLots,
        tier,
        consignee.viaAccountId,
        JSON.stringify(consignee.sources),
        JSON.stringify(consignee.shipped),
      ],
    );
    if (!inserted) continue;
    await owe({
      accountId: consignee.accountId,
      type: 'recall.received',
      sourceKey: `recall:${recallId}`,
      data: noticeData(consignee),
    });
  }
  return endpoints;
}

/**
 * Stores the recall and a notice per direct consignee, and owes each one's webhooks a recall.received,
 * in one transaction. Answers the endpoints owed a notification, to wake after the commit.
 */
export async function createRecall(
  sequelize: Sequelize,
  recall: { id: string; issuerAccountId: string; productId: string; lotSerial: string; reason: string },
  strategy: RecallStrategy,
  consignees: RecallConsignee[],
  noticeData: (consignee: RecallConsignee) => unknown,
): Promise<string[]> {
  return sequelize.transaction(async (transaction) => {
    await executeOf(sequelize, transaction)(
      `INSERT INTO recalls (id, issuer_account_id, product_id, lot_serial, reason, depth, check_level, check_percent, remind_every_seconds, overdue_after_reminders)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        recall.id,
        recall.issuerAccountId,
        recall.productId,
        recall.lotSerial,
        recall.reason,
        strategy.depth,
        strategy.checkLevel,
        strategy.checkPercent,
        strategy.remindEverySeconds,
        strategy.overdueAfterReminders,
      ],
    );
    return insertNotices(sequelize, recall.id, 1, consignees, noticeData, transaction);
  });
}

/** The accounts the recall already reached, and its issuer: passing it on reaches none of them again. */
export async function recallAccounts(sequelize: Sequelize, recall: RecallRow): Promise<Set<string>> {
  const rows = await queryOf(sequelize)<{ holder_account_id: string }>(
    'SELECT holder_account_id FROM recall_notices WHERE recall_id = $1',
    [recall.id],
  );
  return new Set([recall.issuer_account_id, ...rows.map((r) => r.holder_account_id)]);
}

/** Locks the recall row against a concurrent close; answers whether it is still open. */
async function lockOpen(sequelize: Sequelize, id: string, transaction: Transaction): Promise<boolean> {
  const [row] = await queryOf(sequelize, transaction)<{ closed_at: Date | null }>(
    'SELECT closed_at FROM recalls WHERE id = $1 FOR UPDATE',
    [id],
  );
  return Boolean(row) && !row.closed_at;
}

/**
 * A consignee passes the recall on: each of its own consignees not reached yet gets a notice (one tier
 * further) and a recall.received, and the consignee's notice records when it passed the recall on, in
 * one transaction. 'closed' when the recall closed meanwhile.
 */
export async function passRecallOn(
  sequelize: Sequelize,
  notice: NoticeRow,
  consignees: RecallConsignee[],
  noticeData: (consignee: RecallConsignee) => unknown,
): Promise<{ endpoints: string[] } | 'closed'> {
  return sequelize.transaction(async (transaction) => {
    if (!(await lockOpen(sequelize, notice.id, transaction))) return 'closed';
    await executeOf(sequelize, transaction)(
      'UPDATE recall_notices SET passed_on_at = now() WHERE recall_id = $1 AND holder_account_id = $2',
      [notice.id, notice.holder_account_id],
    );
    return {
      endpoints: await insertNotices(sequelize, notice.id, notice.tier + 1, consignees, noticeData, transaction),
    };
  });
}

interface IssuedRecall {
  recall: RecallRow;
  notices: NoticeRow[];
}

/** Each recall with every consignee's notice row. */
async function withNotices(sequelize: Sequelize, recalls: RecallRow[]): Promise<IssuedRecall[]> {
  const notices = recalls.length
    ? await queryOf(sequelize)<NoticeRow>(
        `SELECT ${NOTICE_COLUMNS} FROM ${NOTICE_FROM} WHERE n.recall_id = ANY($1::uuid[]) ORDER BY n.tier, ha.name, n.holder_account_id`,
        [recalls.map((r) => r.id)],
      )
    : [];
  return recalls.map((recall) => ({ recall, notices: notices.filter((notice) => notice.id === recall.id) }));
}

/** The recall as its issuer sees it (null: not the issuer's). */
export async function issuedRecall(sequelize: Sequelize, accountId: string, id: string): Promise<IssuedRecall | null> {
  const recall = await rowOf(sequelize)<RecallRow>(
    `SELECT ${RECALL_COLUMNS} FROM ${RECALL_FROM} WHERE r.id = $1 AND r.issuer_account_id = $2`,
    [id, accountId],
  );
  return recall && (await withNotices(sequelize, [recall]))[0];
}

/** One page of the recalls the account issued, newest first. */
export async function issuedRecalls(
  sequelize: Sequelize,
  accountId: string,
  page: PageRequest,
): Promise<{ recalls: IssuedRecall[]; total: number }> {
  const { rows, total } = await pageOfRows<RecallRow>(
    queryOf(sequelize),
    `SELECT ${RECALL_COLUMNS} FROM ${RECALL_FROM}
      WHERE r.issuer_account_id = $1 ORDER BY r.created_at DESC, r.id OFFSET $2 LIMIT $3`,
    'SELECT count(*) AS n FROM recalls WHERE issuer_account_id = $1',
    [accountId],
    page,
  );
  return { recalls: await withNotices(sequelize, rows), total };
}

export async function receivedNotice(sequelize: Sequelize, accountId: string, id: string): Promise<NoticeRow | null> {
  return rowOf(sequelize)<NoticeRow>(
    `SELECT ${NOTICE_COLUMNS} FROM ${NOTICE_FROM} WHERE n.recall_id = $1 AND n.holder_account_id = $2`,
    [id, accountId],
  );
}

export async function receivedNotices(
  sequelize: Sequelize,
  accountId: string,
  page: PageRequest,
): Promise<{ rows: NoticeRow[]; total: number }> {
  return pageOfRows(
    queryOf(sequelize),
    `SELECT ${NOTICE_COLUMNS} FROM ${NOTICE_FROM} WHERE n.holder_account_id = $1 ORDER BY n.created_at DESC, n.recall_id OFFSET $2 LIMIT $3`,
    'SELECT count(*) AS n FROM recall_notices WHERE holder_account_id = $1',
    [accountId],
    page,
  );
}

/**
 * Records the holder's answer (a later one replaces it) and owes the issuer's webhooks a
 * recall.acknowledged, in one transaction. Answers the endpoints owed a notification; 'closed' when the
 * recall closed meanwhile.
 */
export async function acknowledgeRecall(
  sequelize: Sequelize,
  notice: NoticeRow,
  answer: { quantityOnHand: number; action: string; lots: LotAnswer[] | null },
  data: (acknowledgedAt: Date) => unknown,
): Promise<string[] | 'closed'> {
  return sequelize.transaction(async (transaction) => {
    if (!(await lockOpen(sequelize, notice.id, transaction))) return 'closed';
    const [row] = await queryOf(sequelize, transaction)<{ acknowledged_at: Date }>(
      `UPDATE recall_notices SET acknowledged_at = now(), quantity_on_hand = $3, action = $4, lot_answers = $5
        WHERE recall_id = $1 AND holder_account_id = $2 RETURNING acknowledged_at`,
      [
        notice.id,
        notice.holder_account_id,
        answer.quantityOnHand,
        answer.action,
        answer.lots && JSON.stringify(answer.lots),
      ],
    );
    const at = new Date(row.acknowledged_at);
    return oweAccountNotification(
      sequelize,
      {
        accountId: notice.issuer_account_id,
        type: 'recall.acknowledged',
        sourceKey: `recall-ack:${notice.id}:${notice.holder_account_id}:${at.toISOString()}`,
        data: data(at),
      },
      transaction,
    );
  });
}

/**
 * Closes the recall and owes every consignee's webhooks a recall.closed, in one transaction. Answers the
 * endpoints owed a notification; 'closed' when it was closed already.
 */
export async function closeRecall(
  sequelize: Sequelize,
  recall: RecallRow,
  close: { reason: string | null; levelMet: boolean },
  data: (closedAt: Date) => unknown,
): Promise<string[] | 'closed'> {
  return sequelize.transaction(async (transaction) => {
    if (!(await lockOpen(sequelize, recall.id, transaction))) return 'closed';
    const query = queryOf(sequelize, transaction);
    const [row] = await query<{ closed_at: Date }>(
      'UPDATE recalls SET closed_at = now(), close_reason = $2, closed_level_met = $3 WHERE id = $1 RETURNING closed_at',
      [recall.id, close.reason, close.levelMet],
    );
    const at = new Date(row.closed_at);
    const consignees = await query<{ holder_account_id: string }>(
      'SELECT holder_account_id FROM recall_notices WHERE recall_id = $1',
      [recall.id],
    );
    const { endpoints, owe } = notifications(sequelize, transaction);
    for (const { holder_account_id: accountId } of consignees)
      await owe({ accountId, type: 'recall.closed', sourceKey: `recall-closed:${recall.id}`, data: data(at) });
    return endpoints;
  });
}

/** What one pass of a recall's follow-up did, and when the next is due. */
export interface RecallFollowUp {
  /** No such recall: not stored yet (its follow-up starts before its commit), or never (that commit failed). */
  missing?: boolean;
  closed: boolean;
  /** Names of the consignees reminded, and of those found overdue, in this pass. */
  reminded: string[];
  overdue: string[];
  /** Seconds until the next unanswered consignee is due a reminder (null: none is waiting for one). */
  nextDueSeconds: number | null;
  endpoints: string[];
}

/**
 * One pass of a recall's follow-up, in one transaction: each consignee that has not answered and whose
 * last reminder (or notice) is remind_every_seconds old gets a reminder (in its notice and as
 * recall.reminder), until it has had overdue_after_reminders; at the next due time it is overdue instead,
 * and the issuer is told (recall.overdue). A pass run twice in a row does nothing the second time.
 */
export async function followUpRecall(sequelize: Sequelize, recallId: string): Promise<RecallFollowUp> {
  return sequelize.transaction(async (transaction) => {
    const query = queryOf(sequelize, transaction);
    const [recall] = await query<
      Pick<RecallRow, 'issuer_account_id' | 'closed_at' | 'remind_every_seconds' | 'overdue_after_reminders'>
    >(
      'SELECT issuer_account_id, closed_at, remind_every_seconds, overdue_after_reminders FROM recalls WHERE id = $1 FOR UPDATE',
      [recallId],
    );
    if (!recall)
      return { missing: true, closed: false, reminded: [], overdue: [], nextDueSeconds: null, endpoints: [] };
    if (recall.closed_at) return { closed: true, reminded: [], overdue: [], nextDueSeconds: null, endpoints: [] };
    const due = await query<{ accountId: string; account: string; lots: string[]; reminders: number }>(
      `SELECT n.holder_account_id AS "accountId", a.name AS account, n.received_lots AS lots, cardinality(n.reminded_at) AS reminders
         FROM recall_notices n JOIN accounts a ON a.id = n.holder_account_id
        WHERE n.recall_id = $1 AND n.acknowledged_at IS NULL AND n.overdue_at IS NULL
          AND coalesce(n.reminded_at[cardinality(n.reminded_at)], n.created_at) + make_interval(secs => $2) <= now()
        ORDER BY a.name, n.holder_account_id`,
      [recallId, recall.remind_every_seconds],
    );
    const reminded: string[] = [];
    const overdue: typeof due = [];
    const { endpoints, owe } = notifications(sequelize, transaction);
    for (const consignee of due) {
      const late = consignee.reminders >= recall.overdue_after_reminders;
      const [{ at }] = await query<{ at: Date }>(
        late
          ? 'UPDATE recall_notices SET overdue_at = now() WHERE recall_id = $1 AND holder_account_id = $2 RETURNING overdue_at AS at'
          : 'UPDATE recall_notices SET reminded_at = reminded_at || now() WHERE recall_id = $1 AND holder_account_id = $2 RETURNING now() AS at',
        [recallId, consignee.accountId],
      );
      if (late) {
        overdue.push(consignee);
        continue;
      }
      reminded.push(consignee.account);
      const reminder = consignee.reminders + 1;
      await owe({
        accountId: consignee.accountId,
        type: 'recall.reminder',
        sourceKey: `recall-reminder:${recallId}:${reminder}`,
        data: { id: recallId, reminder, time: new Date(at).toISOString(), lots: consignee.lots },
      });
    }
    if (overdue.length)
      await owe({
        accountId: recall.issuer_account_id,
        type: 'recall.overdue',
        // Each consignee becomes overdue once: the pass's set of them names its notification.
        sourceKey: `recall-overdue:${recallId}:${overdue.map((o) => o.accountId).join(',')}`,
        data: { id: recallId, overdue: overdue.map(({ account, lots, reminders }) => ({ account, lots, reminders })) },
      });
    // min() of no notice is NULL, and greatest() skips a NULL: the outer CASE keeps "none waiting" NULL,
    // not 0 (a pass every second, forever, for every recall whose consignees have all answered).
    const [{ next }] = await query<{ next: number | null }>(
      `SELECT CASE WHEN count(*) > 0 THEN greatest(0, extract(epoch FROM min(coalesce(n.reminded_at[cardinality(n.reminded_at)], n.created_at)) + make_interval(secs => $2) - now()))::float8 END AS next
         FROM recall_notices n WHERE n.recall_id = $1 AND n.acknowledged_at IS NULL AND n.overdue_at IS NULL`,
      [recallId, recall.remind_every_seconds],
    );
    return {
      missing: false,
      closed: false,
      reminded,
      overdue: overdue.map((o) => o.account),
      nextDueSeconds: next === null ? null : Number(next),
      endpoints,
    };
  });
}

/** A product or location of the account, by its service id or the account's own id (resolveIds' rule), with the account's own id. */
export async function ownEntity(
  sequelize: Sequelize,
  table: 'products' | 'locations',
  accountId: string,
  value: string,
): Promise<{ id: string; external_id: string | null } | null> {
  const [id] = await resolveIds(sequelize, table, accountId, [value]);
  if (!id) return null;
  return rowOf(sequelize)(`SELECT id, external_id FROM ${table} WHERE id = $1`, [id]);
}

/** How much of the holder's lot the decommissions carrying the recall's reference recorded, in its account. */
export async function destroyedRecorded(
  sequelize: Sequelize,
  accountId: string,
  reference: string,
  lot: { productId: string; lotSerial: string },
): Promise<number> {
  const [{ recorded }] = await queryOf(sequelize)<{ recorded: string }>(
    `SELECT coalesce(sum(el.quantity), 0) AS recorded FROM events e JOIN event_lines el ON el.event_id = e.id
      WHERE el.account_id = $1 AND el.lot_serial = $4 AND el.product_id = $3
        AND e.type = 'Decommission' AND e.reference_document_id = $2`,
    [accountId, reference, lot.productId, lot.lotSerial],
  );
  return Number(recorded);
}

/**
 * A page of the open recalls issued over `olderThanSeconds` ago, oldest first, after the recall `after`
 * (keyset paging): each one's follow-up should be running.
 */
export async function openRecallIds(
  sequelize: Sequelize,
  olderThanSeconds: number,
  limit: number,
  after?: string,
): Promise<string[]> {
  const rows = await queryOf(sequelize)<{ id: string }>(
    `SELECT id FROM recalls r WHERE closed_at IS NULL AND created_at < now() - make_interval(secs => $1)
        AND ($3::uuid IS NULL OR (r.created_at, r.id) > (SELECT created_at, id FROM recalls WHERE id = $3::uuid))
      ORDER BY created_at, id LIMIT $2`,
    [olderThanSeconds, limit, after ?? null],
  );
  return rows.map((r) => r.id);
}
