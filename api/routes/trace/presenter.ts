import type { Trace, TraceNodeRow } from '../../../db/queries/trace';
import type { RecallReach } from '../../../usecases/trace-lot';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);
const num = (value: string | null): number | null => (value === null ? null : Number(value));

const productOf = (n: TraceNodeRow) => ({
  id: n.product_external_id ?? n.product_id,
  name: n.product_name,
  gtin: n.product_gtin,
  unit: n.unit,
});
const locationOf = (n: TraceNodeRow) => ({
  id: n.location_external_id ?? n.location_id,
  name: n.location_name,
  gln: n.location_gln,
  tradePartner: n.trade_partner_name,
  external: n.connection_type !== 'SELF',
});

type Visibility = 'own' | 'shared' | 'shipment';
const visibilityOf = (n: TraceNodeRow, accountId: string): Visibility =>
  n.account_id === accountId ? 'own' : n.open ? 'shared' : 'shipment';

export function presentNode(n: TraceNodeRow, accountId: string, shippedTo: Map<string, number>) {
  const visibility = visibilityOf(n, accountId);
  // A trade partner's location holds no records of ours: what reached it is what we shipped there.
  const shippedIn = n.connection_type !== 'SELF' && n.event_count === 0 ? (shippedTo.get(n.id) ?? 0) : null;
  return {
    id: n.id,
    product: productOf(n),
    lotSerial: n.lot_serial,
    account: n.account_name,
    location: locationOf(n),
    visibility,
    quantityIn: visibility === 'shipment' ? null : (shippedIn ?? num(n.quantity_in) ?? 0),
    quantityOut: visibility === 'shipment' ? null : (num(n.quantity_out) ?? 0),
    quantityOnHand: visibility === 'own' && shippedIn === null ? (num(n.quantity_on_hand) ?? 0) : null,
    firstEvent: iso(n.first_event),
    lastEvent: iso(n.last_event),
    eventCount: n.event_count,
  };
}

/** What the trace's ships brought to each node. */
export function shippedTo(trace: Trace): Map<string, number> {
  const sums = new Map<string, number>();
  for (const e of trace.edges) if (e.type === 'Ship') sums.set(e.to_id, (sums.get(e.to_id) ?? 0) + Number(e.quantity));
  return sums;
}

export function presentTrace(
  trace: Trace,
  root: { productId: string; lotSerial: string; nodes: string[] },
  accountId: string,
) {
  const shipped = shippedTo(trace);
  return {
    root,
    nodes: trace.nodes.map((n) => presentNode(n, accountId, shipped)),
    edges: trace.edges.map((e) => ({
      from: e.from_id,
      to: e.to_id,
      eventId: e.event_id,
      type: e.type,
      eventTime: e.event_time.toISOString(),
      quantity: Number(e.quantity),
    })),
  };
}

export const presentRecallReach = (reach: RecallReach, root: { productId: string; lotSerial: string }) => ({
  root: { ...root, nodes: reach.rootIds },
  asOf: reach.asOf.toISOString(),
  lots: reach.lots.map((n) => ({ product: productOf(n), lotSerial: n.lot_serial })),
  holdings: reach.holdings.map((n) => ({
    product: productOf(n),
    lotSerial: n.lot_serial,
    location: locationOf(n),
    quantityOnHand: Number(n.quantity_on_hand),
    unit: n.unit,
  })),
  shipments: reach.shipments.map(({ edge, from, to }) => ({
    product: productOf(from),
    lotSerial: from.lot_serial,
    from: locationOf(from),
    to: locationOf(to),
    quantity: Number(edge.quantity),
    unit: from.unit,
    eventId: edge.event_id,
    eventTime: edge.event_time.toISOString(),
  })),
});
