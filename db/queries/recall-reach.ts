import type { Sequelize } from 'sequelize';
import { queryOf } from '../sql';
import { traceLot, type TraceNodeRow } from './trace';

export interface NoticeProduct {
  id: string;
  name: string;
  gtin: string | null;
  unit: string;
}

/** What one holder is told: only what its own traces show (backward to the recalled lot, forward through its own records). */
export interface RecallNoticeBody {
  recalled: { product: NoticeProduct; lotSerial: string }[];
  lots: { product: NoticeProduct; lotSerial: string }[];
  holdings: {
    product: NoticeProduct;
    lotSerial: string;
    location: { id: string; name: string; gln: string | null };
    quantityOnHand: number;
    unit: string;
  }[];
}

export interface RecallHolder {
  accountId: string;
  /** The lot serials it received that lead back to the recalled lot. */
  receivedLots: string[];
  notice: RecallNoticeBody;
}

const productOf = (n: TraceNodeRow): NoticeProduct => ({
  id: n.product_external_id ?? n.product_id,
  name: n.product_name,
  gtin: n.product_gtin,
  unit: n.unit,
});
const keyOf = (...parts: string[]) => parts.join('|');

interface Start {
  accountId: string;
  productId: string;
  lotSerial: string;
}

/**
 * Every account a recall of the issuer's lot reaches, as /Integration/Trace/recall finds holders: each
 * shipment of the lot or a lot made from it to a GLN verified as another account's, then that account's
 * own shipments onwards. An account is a holder only when its own backward trace from what it received
 * shows the issuer's records (so a notice never tells it more than its trace would); its notice lists
 * what it made from the lot and still holds, from its own forward trace.
 */
export async function recallReach(sequelize: Sequelize, issuer: Start): Promise<RecallHolder[]> {
  const query = queryOf(sequelize);
  const holders = new Map<string, RecallHolder>();
  const seen = new Set<string>([keyOf(issuer.accountId, issuer.productId, issuer.lotSerial)]);
  let frontier: Start[] = [issuer];
  while (frontier.length) {
    const next: Start[] = [];
    for (const start of frontier) {
      const forward = await traceLot(sequelize, { ...start, asOf: null, direction: 'forward' });
      const byId = new Map(forward.nodes.map((n) => [n.id, n]));
      for (const edge of forward.edges) {
        const to = byId.get(edge.to_id);
        const from = byId.get(edge.from_id);
        if (edge.type !== 'Ship' || !to || !from || to.connection_type === 'SELF' || !to.location_gln) continue;
        const received = await query<{ account_id: string; product_id: string; lot_serial: string }>(
          `SELECT DISTINCT e.account_id, el.product_id, el.lot_serial
             FROM gln_verifications g
             JOIN locations l ON l.account_id = g.account_id AND l.gln = g.gln
             JOIN events e ON e.location_id = l.id AND e.type = 'Receive'
             JOIN event_lines el ON el.event_id = e.id AND el.lot_serial = $2
            WHERE g.gln = $1 AND g.account_id <> $3`,
          [to.location_gln, from.lot_serial, issuer.accountId],
        );
        for (const lot of received) {
          const key = keyOf(lot.account_id, lot.product_id, lot.lot_serial);
          if (seen.has(key)) continue;
          seen.add(key);
          const backward = await traceLot(sequelize, {
            accountId: lot.account_id,
            productId: lot.product_id,
            lotSerial: lot.lot_serial,
            asOf: null,
            direction: 'backward',
          });
          const recalled = backward.nodes.filter(
            (n) => n.account_id === issuer.accountId && n.lot_serial === issuer.lotSerial,
          );
          if (!recalled.length) continue;
          const own = (
            await traceLot(sequelize, {
              accountId: lot.account_id,
              productId: lot.product_id,
              lotSerial: lot.lot_serial,
              asOf: null,
              direction: 'forward',
            })
          ).nodes.filter((n) => n.account_id === lot.account_id && n.connection_type === 'SELF');
          const holder = holders.get(lot.account_id) ?? {
            accountId: lot.account_id,
            receivedLots: [],
            notice: { recalled: [], lots: [], holdings: [] },
          };
          holders.set(lot.account_id, holder);
          if (!holder.receivedLots.includes(lot.lot_serial)) holder.receivedLots.push(lot.lot_serial);
          addUnique(
            holder.notice.recalled,
            recalled.map((n) => ({ product: productOf(n), lotSerial: n.lot_serial })),
          );
          addUnique(
            holder.notice.lots,
            own.map((n) => ({ product: productOf(n), lotSerial: n.lot_serial })),
          );
          addUnique(
            holder.notice.holdings,
            own
              .filter((n) => Number(n.quantity_on_hand ?? 0) > 0)
              .map((n) => ({
                product: productOf(n),
                lotSerial: n.lot_serial,
                location: { id: n.location_external_id ?? n.location_id, name: n.location_name, gln: n.location_gln },
                quantityOnHand: Number(n.quantity_on_hand),
                unit: n.unit,
              })),
          );
          next.push({ accountId: lot.account_id, productId: lot.product_id, lotSerial: lot.lot_serial });
        }
      }
    }
    frontier = next;
  }
  return [...holders.values()];
}

function addUnique<T>(list: T[], items: T[]): void {
  const keys = new Set(list.map((item) => JSON.stringify(item)));
  for (const item of items) {
    const key = JSON.stringify(item);
    if (!keys.has(key)) {
      keys.add(key);
      list.push(item);
    }
  }
}
