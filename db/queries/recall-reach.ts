import type { Sequelize } from 'sequelize';
import { queryOf } from '../sql';
import type { ShippedLot } from '../../domain/recall-strategy';
import { traceLot, type TraceNodeRow } from './trace';
import { atMost } from '../../domain/at-most';

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

/** How many receipts are looked up, or receiving lots traced, at once: a few of the API's pooled connections. */
const AT_ONCE = 4;

interface ReceivedLotRow {
  account_id: string;
  account_name: string;
  product_id: string;
  lot_serial: string;
}

/** What a receiving lot's own traces show: the recalled lot's nodes (backward) and its own nodes made from it (forward). */
interface LeadBack {
  found: TraceNodeRow[];
  made: TraceNodeRow[];
}

/**
 * The accounts the `shippers`' own shipments of their lots (or of lots made from them) reach, as
 * /Integration/Trace/recall finds holders: each shipment to a GLN verified as another account's. An
 * account is a consignee only when its own backward trace from what it received shows the recalled lot
 * (so a notice never tells it more than its trace would); its notice lists what it made from the lot and
 * still holds, from its own forward trace. Accounts in `known` (the issuer, those already reached) are
 * left out. One hop: the consignees' own shipments are walked when they pass the recall on. The receipts
 * and the receiving lots' traces are read a few at a time (a recall to 100 consignees is 200 traces),
 * then taken in the shipments' order.
 */
export async function recallConsignees(
  sequelize: Sequelize,
  recalled: LotStart,
  shippers: LotStart[],
  known: ReadonlySet<string>,
): Promise<RecallConsignee[]> {
  const query = queryOf(sequelize);
  const holders = new Map<string, RecallConsignee>();
  // Per receiving (account, product, lot): what its traces show of the recalled lot (null: nothing).
  const checked = new Map<string, LeadBack | null>();
  const added = new Set<string>();
  for (const start of shippers) {
    const forward = await traceLot(sequelize, { ...start, asOf: null, direction: 'forward' });
    const byId = new Map(forward.nodes.map((n) => [n.id, n]));
    const shipments = forward.edges.flatMap((edge) => {
      const to = byId.get(edge.to_id);
      const from = byId.get(edge.from_id);
      if (edge.type !== 'Ship' || !to || !from || to.connection_type === 'SELF' || !to.location_gln) return [];
      return from.account_id === start.accountId ? [{ edge, from, gln: to.location_gln }] : [];
    });
    // From the receiver's lines of the lot, not from every receipt at its location (thousands at a busy dock).
    const receipts = await atMost(AT_ONCE, shipments, ({ from, gln }) =>
      query<ReceivedLotRow>(
        `SELECT DISTINCT el.account_id, (SELECT name FROM accounts WHERE id = el.account_id) AS account_name, el.product_id, el.lot_serial
           FROM gln_verifications g
           JOIN locations l ON l.account_id = g.account_id AND l.gln = g.gln
           JOIN event_lines el ON el.account_id = g.account_id AND el.lot_serial = $2
           JOIN events e ON e.id = el.event_id AND e.location_id = l.id AND e.type = 'Receive'
          WHERE g.gln = $1 AND g.account_id <> $3`,
        [gln, from.lot_serial, start.accountId],
      ),
    );
    const unchecked = new Map<string, ReceivedLotRow>();
    for (const lot of receipts.flat()) {
      const key = keyOf(lot.account_id, lot.product_id, lot.lot_serial);
      if (!known.has(lot.account_id) && !checked.has(key)) unchecked.set(key, lot);
    }
    const results = await atMost(AT_ONCE, [...unchecked.values()], (lot) => leadsBack(sequelize, recalled, lot));
    [...unchecked.keys()].forEach((key, i) => checked.set(key, results[i]));

    shipments.forEach(({ edge, from }, i) => {
      const counted = new Set<string>();
      for (const lot of receipts[i]) {
        if (known.has(lot.account_id)) continue;
        const key = keyOf(lot.account_id, lot.product_id, lot.lot_serial);
        const leadBack = checked.get(key)!;
        if (!leadBack) continue;
        const holder = holders.get(lot.account_id) ?? {
          accountId: lot.account_id,
          accountName: lot.account_name,
          receivedLots: [],
          notice: { recalled: [], lots: [], holdings: [] },
          sources: [],
          shipped: [],
          viaAccountId: start.accountId,
        };
        if (!added.has(key)) {
          added.add(key);
          addReceivedLot(lot, holder, leadBack);
          holders.set(lot.account_id, holder);
        }
        // One ship line counts once per consignee lot, however many products it keeps the serial under.
        const countKey = keyOf(lot.account_id, lot.lot_serial);
        if (counted.has(countKey)) continue;
        counted.add(countKey);
        const shipped = holder.shipped.find((s) => s.lotSerial === lot.lot_serial);
        if (shipped) shipped.quantity += Number(edge.quantity);
        else holder.shipped.push({ lotSerial: lot.lot_serial, quantity: Number(edge.quantity), unit: from.unit });
      }
    });
  }
  return [...holders.values()];
}

/** What a received lot's holder's traces show of the recalled lot: null when its backward trace does not reach it. */
async function leadsBack(
  sequelize: Sequelize,
  recalled: LotStart,
  lot: { account_id: string; product_id: string; lot_serial: string },
): Promise<LeadBack | null> {
  const own = { accountId: lot.account_id, productId: lot.product_id, lotSerial: lot.lot_serial, asOf: null };
  const backward = await traceLot(sequelize, { ...own, direction: 'backward' });
  const found = backward.nodes.filter(
    (n) => n.account_id === recalled.accountId && n.lot_serial === recalled.lotSerial,
  );
  if (!found.length) return null;
  const made = (await traceLot(sequelize, { ...own, direction: 'forward' })).nodes.filter(
    (n) => n.account_id === lot.account_id && n.connection_type === 'SELF',
  );
  return { found, made };
}

/** Adds a received lot that leads back to the recalled lot to its holder's notice. */
function addReceivedLot(
  lot: { account_id: string; product_id: string; lot_serial: string },
  holder: RecallConsignee,
  { found, made }: LeadBack,
): void {
  if (!holder.receivedLots.includes(lot.lot_serial)) holder.receivedLots.push(lot.lot_serial);
  holder.sources.push({ accountId: lot.account_id, productId: lot.product_id, lotSerial: lot.lot_serial });
  const lotOf = (n: TraceNodeRow) => ({ product: productOf(n), lotSerial: n.lot_serial });
  addUnique(holder.notice.recalled, found.map(lotOf));
  addUnique(holder.notice.lots, made.map(lotOf));
  addUnique(
    holder.notice.holdings,
    made
      .filter((n) => Number(n.quantity_on_hand ?? 0) > 0)
      .map((n) => ({
        ...lotOf(n),
        location: { id: n.location_external_id ?? n.location_id, name: n.location_name, gln: n.location_gln },
        quantityOnHand: Number(n.quantity_on_hand),
        unit: n.unit,
      })),
  );
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

/** Whether an event of the account names lot `lotSerial` of the product: a recall of one it never recorded reaches no one. */
export async function lotRecorded(
  sequelize: Sequelize,
  accountId: string,
  productId: string,
  lotSerial: string,
): Promise<boolean> {
  const rows = await queryOf(sequelize)<{ found: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM event_lines WHERE account_id = $1 AND product_id = $2 AND lot_serial = $3) AS found',
    [accountId, productId, lotSerial],
  );
  return rows[0].found;
}
