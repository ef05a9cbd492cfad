import type { Sequelize } from 'sequelize';
import type { PageRequest } from '../page';
import { queryOf } from '../sql';
import { NOT_TO_A_CUSTOMER } from './trace';

export const SORTS = {
  eventDate: 'v.event_time ASC, v.seq ASC, v.line_id ASC',
  '-eventDate': 'v.event_time DESC, v.seq DESC, v.line_id DESC',
  eventType: 'v.type ASC, v.event_time DESC, v.seq DESC, v.line_id',
  productName: 'p.name ASC, v.event_time DESC, v.seq DESC, v.line_id',
} as const;

export type SortBy = keyof typeof SORTS;

export interface EventDetailRow {
  line_id: string;
  event_id: string;
  /** The caller's own ids of its own event, product and location; null on another account's rows. */
  external_event_id: string | null;
  external_product_id: string | null;
  external_location_id: string | null;
  type: string;
  product_name: string;
  lot_serial: string;
  quantity: string;
  location_name: string;
  company_name: string;
  event_time: Date;
}

export interface EventDetailsFilter {
  accountId: string;
  lotSerial: string;
  purchaseOrder?: string;
  sortBy: SortBy;
  page: PageRequest;
}

/*
 * The lines of lot $2 the caller may see (DESIGN.md, Event details visibility):
 *  - every line of the caller's own events;
 *  - when another account ships the lot to a location whose GLN the service's operator verified as the
 *    caller's (gln_verifications), that ship event, and with an Open product also that account's earlier
 *    events of the product and lot but its shipments to others than itself (its other customers); a GLN
 *    merely typed on a location grants nothing;
 *  - a transform ends a lot's history: where the lot is a transform's output, nothing of that account
 *    before that transform is shown.
 * Events of the caller's customers never flow back: only shipments *to* the caller open anything.
 */
const VISIBLE = `
  lot_lines AS (
    SELECT l.id AS line_id, l.product_id, l.lot_serial, l.quantity, l.role,
           e.id AS event_id, e.external_event_id, e.account_id, e.type, e.event_time, e.seq, e.location_id,
           e.destination_location_id, e.purchase_order
      FROM event_lines l JOIN events e ON e.id = l.event_id
     WHERE l.lot_serial = $2
  ),
  incoming AS (
    SELECT s.event_id, s.account_id, s.product_id, s.event_time, s.seq, p.sharing_policy
      FROM lot_lines s
      JOIN products p ON p.id = s.product_id
      JOIN locations d ON d.id = s.destination_location_id
     WHERE s.type = 'Ship' AND s.account_id <> $1
       AND EXISTS (SELECT 1 FROM gln_verifications mine WHERE mine.account_id = $1 AND mine.gln = d.gln)
  ),
  cuts AS (
    SELECT DISTINCT ON (account_id) account_id, event_time, seq
      FROM lot_lines WHERE role = 'output'
     ORDER BY account_id, event_time, seq
  ),
  visible AS (
    SELECT v.* FROM lot_lines v
     WHERE v.account_id = $1
        OR v.event_id IN (SELECT event_id FROM incoming)
        OR ((${NOT_TO_A_CUSTOMER('v.event_id')})
            AND EXISTS (SELECT 1 FROM incoming i
                    WHERE i.sharing_policy = 'Open' AND i.account_id = v.account_id AND i.product_id = v.product_id
                      AND (v.event_time, v.seq) <= (i.event_time, i.seq)))
  )`;

/**
 * The PurchaseOrder filter: another account's event matches only when the number is not the id of one of
 * that account's Private documents, so the filter cannot confirm a number its owner keeps private.
 */
const PURCHASE_ORDER = `($3::text IS NULL OR (v.purchase_order = $3 AND (v.account_id = $1 OR NOT EXISTS (
    SELECT 1 FROM documents d WHERE d.account_id = v.account_id AND lower(d.document_id) = lower($3) AND d.privacy = 'Private'))))`;

export async function eventDetails(
  sequelize: Sequelize,
  filter: EventDetailsFilter,
): Promise<{ rows: EventDetailRow[]; total: number }> {
  const { pageNumber, pageSize, offset } = filter.page;
  const bind = [filter.accountId, filter.lotSerial, filter.purchaseOrder ?? null, pageSize, offset];
  const query = queryOf(sequelize);
  const rows = await query<EventDetailRow & { total: string }>(
    `WITH ${VISIBLE}
     SELECT v.line_id, v.event_id, v.type, p.name AS product_name, v.lot_serial, v.quantity,
            loc.name AS location_name, tp.name AS company_name, v.event_time,
            CASE WHEN v.account_id = $1 THEN v.external_event_id END AS external_event_id,
            CASE WHEN v.account_id = $1 THEN p.external_id END AS external_product_id,
            CASE WHEN v.account_id = $1 THEN loc.external_id END AS external_location_id,
            count(*) OVER () AS total
       FROM visible v
       JOIN products p ON p.id = v.product_id
       JOIN locations loc ON loc.id = v.location_id
       JOIN trade_partners tp ON tp.id = loc.trade_partner_id
       LEFT JOIN cuts c ON c.account_id = v.account_id
      WHERE (c.account_id IS NULL OR (v.event_time, v.seq) >= (c.event_time, c.seq))
        AND ${PURCHASE_ORDER}
      ORDER BY ${SORTS[filter.sortBy]}
      LIMIT $4 OFFSET $5`,
    bind,
  );
  if (rows.length || pageNumber === 1) return { rows, total: rows.length ? Number(rows[0].total) : 0 };
  // Past the last page the window count is not there to read: count on its own.
  const [{ total }] = await query<{ total: string }>(
    `WITH ${VISIBLE}
     SELECT count(*) AS total FROM visible v LEFT JOIN cuts c ON c.account_id = v.account_id
      WHERE (c.account_id IS NULL OR (v.event_time, v.seq) >= (c.event_time, c.seq))
        AND ${PURCHASE_ORDER}`,
    bind.slice(0, 3),
  );
  return { rows, total: Number(total) };
}
