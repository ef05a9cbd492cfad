import type { Sequelize } from 'sequelize';
import type { PageRequest } from '../page';
import type { RecallHolder, RecallNoticeBody } from '../queries/recall-reach';
import { execute, queryOf } from '../sql';
import { oweAccountNotification } from './webhooks';

export interface RecallRow {
  id: string;
  issuer_account_id: string;
  issuer_name: string;
  product_external_id: string;
  lot_serial: string;
  reason: string;
  created_at: Date;
}

export interface NoticeRow extends RecallRow {
  holder_account_id: string;
  holder_name: string;
  notice: RecallNoticeBody;
  received_lots: string[];
  acknowledged_at: Date | null;
  quantity_on_hand: string | null;
  action: string | null;
}

const RECALL_COLUMNS = `r.id, r.issuer_account_id, ia.name AS issuer_name, p.external_id AS product_external_id, r.lot_serial, r.reason, r.created_at`;
const NOTICE_FROM = `recall_notices n JOIN recalls r ON r.id = n.recall_id JOIN accounts ia ON ia.id = r.issuer_account_id
  JOIN accounts ha ON ha.id = n.holder_account_id JOIN products p ON p.id = r.product_id`;
const NOTICE_COLUMNS = `${RECALL_COLUMNS}, n.holder_account_id, ha.name AS holder_name, n.notice, n.received_lots, n.acknowledged_at, n.quantity_on_hand, n.action`;

/**
 * Stores the recall and a notice per holder, and owes each holder's webhooks a recall.received, in one
 * transaction. Answers the endpoints owed a notification, to wake after the commit.
 */
export async function createRecall(
  sequelize: Sequelize,
  recall: { id: string; issuerAccountId: string; productId: string; lotSerial: string; reason: string },
  holders: RecallHolder[],
  noticeData: (holder: RecallHolder) => unknown,
): Promise<string[]> {
  return sequelize.transaction(async (transaction) => {
    await execute(
      sequelize,
      'INSERT INTO recalls (id, issuer_account_id, product_id, lot_serial, reason) VALUES ($1, $2, $3, $4, $5)',
      [recall.id, recall.issuerAccountId, recall.productId, recall.lotSerial, recall.reason],
      transaction,
    );
    const endpoints: string[] = [];
    for (const holder of holders) {
      await execute(
        sequelize,
        'INSERT INTO recall_notices (recall_id, holder_account_id, notice, received_lots) VALUES ($1, $2, $3, $4)',
        [recall.id, holder.accountId, JSON.stringify(holder.notice), holder.receivedLots],
        transaction,
      );
      endpoints.push(
        ...(await oweAccountNotification(
          sequelize,
          {
            accountId: holder.accountId,
            type: 'recall.received',
            sourceKey: `recall:${recall.id}`,
            data: noticeData(holder),
          },
          transaction,
        )),
      );
    }
    return endpoints;
  });
}

/** The recall as its issuer sees it, with every holder's notice row (null: not the issuer's). */
export async function issuedRecall(
  sequelize: Sequelize,
  accountId: string,
  id: string,
): Promise<{ recall: RecallRow; notices: NoticeRow[] } | null> {
  const query = queryOf(sequelize);
  const [recall] = await query<RecallRow>(
    `SELECT ${RECALL_COLUMNS} FROM recalls r JOIN accounts ia ON ia.id = r.issuer_account_id JOIN products p ON p.id = r.product_id WHERE r.id = $1 AND r.issuer_account_id = $2`,
    [id, accountId],
  );
  if (!recall) return null;
  const notices = await query<NoticeRow>(
    `SELECT ${NOTICE_COLUMNS} FROM ${NOTICE_FROM} WHERE n.recall_id = $1 ORDER BY ha.name, n.holder_account_id`,
    [id],
  );
  return { recall, notices };
}

/** One page of the recalls the account issued, newest first, each with every holder's notice row. */
export async function issuedRecalls(
  sequelize: Sequelize,
  accountId: string,
  page: PageRequest,
): Promise<{ recalls: { recall: RecallRow; notices: NoticeRow[] }[]; total: number }> {
  const query = queryOf(sequelize);
  const recalls = await query<RecallRow>(
    `SELECT ${RECALL_COLUMNS} FROM recalls r JOIN accounts ia ON ia.id = r.issuer_account_id JOIN products p ON p.id = r.product_id
      WHERE r.issuer_account_id = $1 ORDER BY r.created_at DESC, r.id OFFSET $2 LIMIT $3`,
    [accountId, page.offset, page.pageSize],
  );
  const notices = recalls.length
    ? await query<NoticeRow>(
        `SELECT ${NOTICE_COLUMNS} FROM ${NOTICE_FROM} WHERE n.recall_id = ANY($1::uuid[]) ORDER BY ha.name, n.holder_account_id`,
        [recalls.map((r) => r.id)],
      )
    : [];
  const [{ n }] = await query<{ n: string }>('SELECT count(*) AS n FROM recalls WHERE issuer_account_id = $1', [
    accountId,
  ]);
  return {
    recalls: recalls.map((recall) => ({ recall, notices: notices.filter((notice) => notice.id === recall.id) })),
    total: Number(n),
  };
}

export async function receivedNotice(sequelize: Sequelize, accountId: string, id: string): Promise<NoticeRow | null> {
  const [row] = await queryOf(sequelize)<NoticeRow>(
    `SELECT ${NOTICE_COLUMNS} FROM ${NOTICE_FROM} WHERE n.recall_id = $1 AND n.holder_account_id = $2`,
    [id, accountId],
  );
  return row ?? null;
}

export async function receivedNotices(
  sequelize: Sequelize,
  accountId: string,
  page: PageRequest,
): Promise<{ rows: NoticeRow[]; total: number }> {
  const query = queryOf(sequelize);
  const rows = await query<NoticeRow>(
    `SELECT ${NOTICE_COLUMNS} FROM ${NOTICE_FROM} WHERE n.holder_account_id = $1 ORDER BY n.created_at DESC, n.recall_id OFFSET $2 LIMIT $3`,
    [accountId, page.offset, page.pageSize],
  );
  const [{ n }] = await query<{ n: string }>('SELECT count(*) AS n FROM recall_notices WHERE holder_account_id = $1', [
    accountId,
  ]);
  return { rows, total: Number(n) };
}

/**
 * Records the holder's answer (a later one replaces it) and owes the issuer's webhooks a
 * recall.acknowledged, in one transaction. Answers the endpoints owed a notification.
 */
export async function acknowledgeRecall(
  sequelize: Sequelize,
  notice: NoticeRow,
  answer: { quantityOnHand: number; action: string },
  data: (acknowledgedAt: Date) => unknown,
): Promise<string[]> {
  return sequelize.transaction(async (transaction) => {
    const [row] = await queryOf(sequelize, transaction)<{ acknowledged_at: Date }>(
      `UPDATE recall_notices SET acknowledged_at = now(), quantity_on_hand = $3, action = $4 WHERE recall_id = $1 AND holder_account_id = $2 RETURNING acknowledged_at`,
      [notice.id, notice.holder_account_id, answer.quantityOnHand, answer.action],
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
