import Router from '@koa/router';
import { resolveIds } from '../../../db/queries/inventory';
import { traceLot, type Direction, type Trace } from '../../../db/queries/trace';
import { traceEventLines } from '../../../db/queries/trace-events';
import { fsmaRows } from '../../../domain/fsma204';
import { type APIContext, type AppCustom, type AppState } from '../../context';
import { problem, queryTime } from '../../errors';
import { validate } from '../../middleware/validate';
import { browserPageRouter } from '../../browser-page';
import { TRACE_PAGE } from './page';
import { locationOf, presentNode, presentTrace, productOf, shippedTo, withinDepth } from './presenter';
import {
  DEFAULT_TRACE_DEPTH,
  MAX_TRACE_DEPTH,
  fsmaQuery,
  nodeEventsQuery,
  recallQuery,
  traceQuery,
  type TraceQuery,
} from './schema';
import { CSV_TYPE, XLSX_TYPE, fsmaCsv, fsmaXlsx } from '../../../platform/spreadsheet-writing';

/** A trace as asked: `product` is the caller's own id or the service id, as sent. */
interface TraceRequest {
  product: string;
  lotSerial: string;
  direction: Direction;
  asOf: Date | null;
  maxDepth: number;
}

/** The caller's product named by ProductId (its own id or the service id): a 404 naming ProductId when there is none. */
async function rootProduct(ctx: APIContext, productId: string): Promise<string> {
  const [id] = await resolveIds(ctx.deps.sequelize, 'products', ctx.state.account.id, [productId]);
  if (!id)
    throw problem('unknown-product', {
      detail: `Product not found: ${productId}`,
      errors: { ProductId: [`No product ${productId} in this account.`] },
    });
  return id;
}

function requestOf(query: TraceQuery): TraceRequest {
  const maxDepth = query.MaxDepth ? Number(query.MaxDepth) : DEFAULT_TRACE_DEPTH;
  const asOf = queryTime('AsOf', query.AsOf) ?? null;
  return { product: query.ProductId, lotSerial: query.LotSerial, direction: query.Direction ?? 'both', asOf, maxDepth };
}

/** The trace of one lot, cut at maxDepth edges from the lot's own nodes. */
async function traceOf(ctx: APIContext, request: TraceRequest): Promise<{ trace: Trace; rootIds: string[] }> {
  const productId = await rootProduct(ctx, request.product);
  const full = await traceLot(ctx.deps.sequelize, {
    accountId: ctx.state.account.id,
    productId,
    lotSerial: request.lotSerial,
    asOf: request.asOf,
    direction: request.direction,
  });
  const rootIds = full.nodes
    .filter((n) => n.product_id === productId && n.lot_serial === request.lotSerial)
    .map((n) => n.id);
  return { trace: withinDepth(full, rootIds, request.maxDepth), rootIds };
}

/** GET /Integration/Trace, /events, /recall, /fsma204: a lot's chain across accounts, a node's events, what a recall must reach, the FDA's spreadsheet of it. */
export function traceRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.get('/Integration/Trace', validate({ query: traceQuery }), async (ctx) => {
    const { query } = ctx.state.input;
    const { trace, rootIds } = await traceOf(ctx, requestOf(query));
    ctx.body = presentTrace(
      trace,
      { productId: query.ProductId, lotSerial: query.LotSerial, nodes: rootIds },
      ctx.state.account.id,
    );
  });

  router.get('/Integration/Trace/recall', validate({ query: recallQuery }), async (ctx) => {
    const { query } = ctx.state.input;
    const asOf = new Date();
    const { trace, rootIds } = await traceOf(ctx, {
      product: query.ProductId,
      lotSerial: query.LotSerial,
      direction: 'forward',
      asOf,
      maxDepth: MAX_TRACE_DEPTH,
    });
    const byId = new Map(trace.nodes.map((n) => [n.id, n]));
    const ours = trace.nodes.filter((n) => n.connection_type === 'SELF');
    const lots = [
      ...new Map(
        ours.map((n) => [`${n.product_id}|${n.lot_serial}`, { product: productOf(n), lotSerial: n.lot_serial }]),
      ).values(),
    ];
    ctx.body = {
      root: { productId: query.ProductId, lotSerial: query.LotSerial, nodes: rootIds },
      asOf: asOf.toISOString(),
      lots,
      holdings: ours
        .filter((n) => Number(n.quantity_on_hand ?? 0) > 0)
        .map((n) => ({
          product: productOf(n),
          lotSerial: n.lot_serial,
          location: locationOf(n),
          quantityOnHand: Number(n.quantity_on_hand),
          unit: n.unit,
        })),
      shipments: trace.edges
        .filter((e) => e.type === 'Ship' && byId.get(e.to_id)?.connection_type !== 'SELF')
        .map((e) => {
          const from = byId.get(e.from_id)!;
          return {
            product: productOf(from),
            lotSerial: from.lot_serial,
            from: locationOf(from),
            to: locationOf(byId.get(e.to_id)!),
            quantity: Number(e.quantity),
            unit: from.unit,
            eventId: e.event_id,
            eventTime: e.event_time.toISOString(),
          };
        }),
    };
  });

  router.get('/Integration/Trace/events', validate({ query: nodeEventsQuery }), async (ctx) => {
    const { query } = ctx.state.input;
    const { trace } = await traceOf(ctx, requestOf(query));
    const node = trace.nodes.find((n) => n.id === query.NodeId);
    if (!node)
      throw problem('unknown-trace-node', {
        detail: `Node not found: ${query.NodeId}`,
        errors: { NodeId: ['No node of this trace has that id.'] },
      });
    const names = (place: { name: string } | null) => place?.name ?? null;
    const lines = await traceEventLines(
      ctx.deps.sequelize,
      { nodes: [node], edges: trace.edges },
      ctx.state.account.id,
    );
    ctx.body = {
      node: presentNode(node, ctx.state.account.id, shippedTo(trace)),
      events: lines.map((l) => ({
        eventId: l.eventId,
        type: l.type,
        role: l.role,
        eventTime: l.eventTime.toISOString(),
        quantity: Number(l.quantity),
        unit: l.unit,
        from: names(l.source),
        to: names(l.destination),
        documents: l.documents,
      })),
    };
  });

  router.get('/Integration/Trace/fsma204', validate({ query: fsmaQuery }), async (ctx) => {
    const { query } = ctx.state.input;
    const { trace } = await traceOf(ctx, requestOf(query));
    const rows = fsmaRows(await traceEventLines(ctx.deps.sequelize, trace, ctx.state.account.id));
    const format = query.format ?? 'csv';
    const name = `fsma204-${query.LotSerial.replace(/[^A-Za-z0-9._-]+/g, '_')}.${format}`;
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (format === 'xlsx') {
      ctx.type = XLSX_TYPE;
      ctx.body = await fsmaXlsx(rows);
    } else {
      ctx.type = `${CSV_TYPE}; charset=utf-8`;
      ctx.body = fsmaCsv(rows);
    }
  });

  return router;
}

/** `GET /trace`: the page that draws a trace. */
export const tracePageRouter = () => browserPageRouter('/trace', TRACE_PAGE);
