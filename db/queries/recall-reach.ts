import type { Sequelize } from 'sequelize';
import { queryOf } from '../sql';
import type { ShippedLot } from '../../domain/recall-strategy';
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

/** A lot as one account keeps it: where a walk starts. */
export interface LotStart {
  accountId: string;
  productId: string;
  lotSerial: string;
}

export interface RecallConsignee extends RecallHolder {
  /** Its own lots it received that lead back to the recalled lot: where passing the recall on starts. */
  sources: LotStart[];
  /** Per lot serial it received, what its shippers' ship events sent it. */
  shipped: ShippedLot[];
  accountName: string;
  /** The account whose shipment reached it. */
  viaAccountId: string;
}

/**
 * The accounts the `shippers`' own shipments of their lots (or of lots made from them) reach, as
 * /Integration/Trace/recall finds holders: each shipment to a GLN verified as another account's. An
 * account is a consignee only when its own backward trace from what it received shows the recalled lot
 * (so a notice never tells it more than its trace would); its notice lists what it made from the lot and
 * still holds, from its own forward trace. Accounts in `known` (the issuer, those already reached) are
 * left out. One hop: the consignees' own shipments are walked when they pass the recall on.
 */
export async function recallConsignees(
  sequelize: Sequelize,
  recalled: LotStart,
  shippers: LotStart[],
  known: ReadonlySet<string>,
): Promise<RecallConsignee[]> {
  const query = queryOf(sequelize);
  const holders = new Map<string, RecallConsignee>();
  // Per receiving (account, product, lot): whether it leads back to the recalled lot.
  const checked = new Map<string, boolean>();
  for (const start of shippers) {
    const forward = await traceLot(sequelize, { ...start, asOf: null, direction: 'forward' });
    const byId = new Map(forward.nodes.map((n) => [n.id, n]));
    for (const edge of forward.edges) {
      const to = byId.get(edge.to_id);
      const from = byId.get(edge.from_id);
      if (edge.type !== 'Ship' || !to || !from || to.connection_type === 'SELF' || !to.location_gln) continue;
      if (from.account_id !== start.accountId) continue;
      const received = await query<{
        account_id: string;
        account_name: string;
        product_id: string;
        lot_serial: string;
      }>(
        `SELECT DISTINCT e.account_id, (SELECT name FROM accounts WHERE id = e.account_id) AS account_name, el.product_id, el.lot_serial
           FROM gln_verifications g
           JOIN locations l ON l.account_id = g.account_id AND l.gln = g.gln
           JOIN events e ON e.location_id = l.id AND e.type = 'Receive'
           JOIN event_lines el ON el.event_id = e.id AND el.lot_serial = $2
          WHERE g.gln = $1 AND g.account_id <> $3`,
        [to.location_gln, from.lot_serial, start.accountId],
      );
      const counted = new Set<string>();
      for (const lot of received) {
        if (known.has(lot.account_id)) continue;
        const key = keyOf(lot.account_id, lot.product_id, lot.lot_serial);
        let leadsBack = checked.get(key);
        const holder = holders.get(lot.account_id) ?? {
          accountId: lot.account_id,
          accountName: lot.account_name,
          receivedLots: [],
          notice: { recalled: [], lots: [], holdings: [] },
          sources: [],
          shipped: [],
          viaAccountId: start.accountId,
        };
        if (leadsBack === undefined) {
          leadsBack = await addReceivedLot(sequelize, recalled, lot, holder);
          checked.set(key, leadsBack);
          if (leadsBack) holders.set(lot.account_id, holder);
        }
        // One ship line counts once per consignee lot, however many products it keeps the serial under.
        const countKey = keyOf(lot.account_id, lot.lot_serial);
        if (!leadsBack || counted.has(countKey)) continue;
        counted.add(countKey);
        const shipped = holder.shipped.find((s) => s.lotSerial === lot.lot_serial);
        if (shipped) shipped.quantity += Number(edge.quantity);
        else holder.shipped.push({ lotSerial: lot.lot_serial, quantity: Number(edge.quantity), unit: from.unit });
      }
    }
  }
  return [...holders.values()];
}

/** Adds a received lot to its holder's notice when the holder's backward trace shows the recalled lot; answers whether it does. */
async function addReceivedLot(
  sequelize: Sequelize,
  recalled: LotStart,
  lot: { account_id: string; product_id: string; lot_serial: string },
  holder: RecallConsignee,
): Promise<boolean> {
  const own = { accountId: lot.account_id, productId: lot.product_id, lotSerial: lot.lot_serial, asOf: null };
  const backward = await traceLot(sequelize, { ...own, direction: 'backward' });
  const found = backward.nodes.filter(
    (n) => n.account_id === recalled.accountId && n.lot_serial === recalled.lotSerial,
  );
  if (!found.length) return false;
  const made = (await traceLot(sequelize, { ...own, direction: 'forward' })).nodes.filter(
    (n) => n.account_id === lot.account_id && n.connection_type === 'SELF',
  );
  if (!holder.receivedLots.includes(lot.lot_serial)) holder.receivedLots.push(lot.lot_serial);
  holder.sources.push({ accountId: lot.account_id, productId: lot.product_id, lotSerial: lot.lot_serial });
  addUnique(
    holder.notice.recalled,
    found.map((n) => ({ product: productOf(n), lotSerial: n.lot_serial })),
  );
  addUnique(
    holder.notice.lots,
    made.map((n) => ({ product: productOf(n), lotSerial: n.lot_serial })),
  );
  addUnique(
    holder.notice.holdings,
    made
      .filter((n) => Number(n.quantity_on_hand ?? 0) > 0)
      .map((n) => ({
        product: productOf(n),
        lotSerial: n.lot_serial,
        location: { id: n.location_external_id ?? n.location_id, name: n.location_name, gln: n.location_gln },
        quantityOnHand: Number(n.quantity_on_hand),
        unit: n.unit,
      })),
  );
  return true;
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
