import type { Trace, TraceNodeRow } from '../../../db/queries/trace';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);
const num = (value: string | null): number | null => (value === null ? null : Number(value));

export const productOf = (n: TraceNodeRow) => ({
  id: n.product_external_id ?? n.product_id,
  name: n.product_name,
  gtin: n.product_gtin,
  unit: n.unit,
});
export const locationOf = (n: TraceNodeRow) => ({
  id: n.location_external_id ?? n.location_id,
  name: n.location_name,
  gln: n.location_gln,
  tradePartner: n.trade_partner_name,
  external: n.connection_type !== 'SELF',
});

type Visibility = 'own' | 'shared' | 'shipment';
const visibilityOf = (n: TraceNodeRow, accountId: string): Visibility =>
  n.account_id === accountId ? 'own' : n.open ? 'shared' : 'shipment';

/** The nodes within `maxDepth` edges of the root's nodes (either way along an edge), and the edges between them. */
export function withinDepth(trace: Trace, rootIds: string[], maxDepth: number): Trace {
  const neighbours = new Map<string, string[]>();
  for (const e of trace.edges) {
    (neighbours.get(e.from_id) ?? neighbours.set(e.from_id, []).get(e.from_id)!).push(e.to_id);
    (neighbours.get(e.to_id) ?? neighbours.set(e.to_id, []).get(e.to_id)!).push(e.from_id);
  }
  const depth = new Map(rootIds.map((id) => [id, 0]));
  let frontier = rootIds;
  for (let d = 1; d <= maxDepth && frontier.length; d++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const n of neighbours.get(id) ?? []) {
        if (!depth.has(n)) {
          depth.set(n, d);
          next.push(n);
        }
      }
    }
    frontier = next;
  }
  return {
    nodes: trace.nodes.filter((n) => depth.has(n.id)),
    edges: trace.edges.filter((e) => depth.has(e.from_id) && depth.has(e.to_id)),
  };
}

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
