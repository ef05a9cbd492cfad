/**
 * Tracing a lot: its chain across accounts cut at a depth, a node's events, what a recall of it must reach,
 * the FDA's FSMA 204 rows. Read-only; null: the account has no such product.
 */
import type { Sequelize } from 'sequelize';
import { resolveIds } from '../db/queries/inventory';
import {
  traceLot as tracedLot,
  traceSheet,
  type Direction,
  type Trace,
  type TraceFilter,
  type TraceNodeRow,
} from '../db/queries/trace';
import { traceEventLines } from '../db/queries/trace-events';
import { fsmaRows, type CteLine, type FsmaRow } from '../domain/fsma204';

/** A trace as asked: `product` is the caller's own id or the service id, as sent. */
export interface TraceRequest {
  accountId: string;
  product: string;
  lotSerial: string;
  direction: Direction;
  asOf: Date | null;
  maxDepth: number;
}

/** The nodes within `maxDepth` edges of the root's nodes (either way along an edge), and the edges between them. */
function withinDepth<T extends { nodes: { id: string }[]; edges: { from_id: string; to_id: string }[] }>(
  trace: T,
  rootIds: string[],
  maxDepth: number,
): T {
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
    ...trace,
    nodes: trace.nodes.filter((n) => depth.has(n.id)),
    edges: trace.edges.filter((e) => depth.has(e.from_id) && depth.has(e.to_id)),
  };
}

/** The trace of one lot, cut at maxDepth edges from the lot's own nodes, and the ids of those nodes. */
async function cutAtDepth<
  T extends {
    nodes: { id: string; product_id: string; lot_serial: string }[];
    edges: { from_id: string; to_id: string }[];
  },
>(
  sequelize: Sequelize,
  request: TraceRequest,
  walk: (sequelize: Sequelize, filter: TraceFilter) => Promise<T>,
): Promise<{ trace: T; rootIds: string[] } | null> {
  const [productId] = await resolveIds(sequelize, 'products', request.accountId, [request.product]);
  if (!productId) return null;
  const { accountId, lotSerial, asOf, direction } = request;
  const full = await walk(sequelize, { accountId, productId, lotSerial, asOf, direction });
  const rootIds = full.nodes.filter((n) => n.product_id === productId && n.lot_serial === lotSerial).map((n) => n.id);
  return { trace: withinDepth(full, rootIds, request.maxDepth), rootIds };
}

export const traceLot = (sequelize: Sequelize, request: TraceRequest) => cutAtDepth(sequelize, request, tracedLot);

export type NodeEvents =
  | { kind: 'unknownProduct' }
  | { kind: 'unknownNode' }
  | { kind: 'found'; trace: Trace; node: TraceNodeRow; lines: CteLine[] };

/** The events behind one node of the trace, as the caller may see them. */
export async function traceNodeEvents(
  sequelize: Sequelize,
  request: TraceRequest,
  nodeId: string,
): Promise<NodeEvents> {
  const traced = await traceLot(sequelize, request);
  if (!traced) return { kind: 'unknownProduct' };
  const node = traced.trace.nodes.find((n) => n.id === nodeId);
  if (!node) return { kind: 'unknownNode' };
  const shown = traced.trace.edges.map((e) => e.event_id);
  const lines = await traceEventLines(sequelize, { nodes: [node], shown }, request.accountId);
  return { kind: 'found', trace: traced.trace, node, lines };
}

/** The FDA's FSMA 204 rows of the trace: one per critical tracking event. */
export async function traceFsma204(sequelize: Sequelize, request: TraceRequest): Promise<FsmaRow[] | null> {
  const traced = await cutAtDepth(sequelize, request, traceSheet);
  if (!traced) return null;
  const { nodes, edges } = traced.trace;
  const shown = edges.flatMap((e) => e.shown);
  return fsmaRows(await traceEventLines(sequelize, { nodes, shown }, request.accountId));
}

export type RecallReach = NonNullable<Awaited<ReturnType<typeof recallReach>>>;

/** What a recall of the lot must reach now: the caller's lots it went into, what is on hand, what left the account. */
export async function recallReach(
  sequelize: Sequelize,
  request: Pick<TraceRequest, 'accountId' | 'product' | 'lotSerial'>,
  maxDepth: number,
) {
  const asOf = new Date();
  const traced = await traceLot(sequelize, { ...request, direction: 'forward', asOf, maxDepth });
  if (!traced) return null;
  const { trace, rootIds } = traced;
  const byId = new Map(trace.nodes.map((n) => [n.id, n]));
  const ours = trace.nodes.filter((n) => n.connection_type === 'SELF');
  return {
    rootIds,
    asOf,
    lots: [...new Map(ours.map((n) => [`${n.product_id}|${n.lot_serial}`, n])).values()],
    holdings: ours.filter((n) => Number(n.quantity_on_hand ?? 0) > 0),
    shipments: trace.edges
      .filter((edge) => edge.type === 'Ship' && byId.get(edge.to_id)?.connection_type !== 'SELF')
      .map((edge) => ({ edge, from: byId.get(edge.from_id)!, to: byId.get(edge.to_id)! })),
  };
}
