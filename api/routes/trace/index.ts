import Router from '@koa/router';
import { recallReach, traceFsma204, traceLot, traceNodeEvents, type TraceRequest } from '../../../usecases/trace-lot';
import { type APIContext, type AppCustom, type AppState } from '../../context';
import { problem, queryTime, unknownProduct } from '../../errors';
import { validate } from '../../middleware/validate';
import { browserPageRouter } from '../../browser-page';
import { TRACE_PAGE } from './page';
import { sendSpreadsheet } from '../../spreadsheet';
import { presentNode, presentRecallReach, presentTrace, shippedTo } from './presenter';
import {
  DEFAULT_TRACE_DEPTH,
  MAX_TRACE_DEPTH,
  fsmaQuery,
  nodeEventsQuery,
  recallQuery,
  traceQuery,
  type TraceQuery,
} from '../../../contract/trace/schema';
import { Readable } from 'node:stream';
import { fsmaCsvChunks, fsmaXlsx } from '../../../platform/spreadsheet-writing';

function requestOf(ctx: APIContext, query: TraceQuery): TraceRequest {
  const maxDepth = query.MaxDepth ? Number(query.MaxDepth) : DEFAULT_TRACE_DEPTH;
  const asOf = queryTime('AsOf', query.AsOf) ?? null;
  const { LotSerial: lotSerial, Direction: direction = 'both' } = query;
  return { accountId: ctx.state.account.id, product: query.ProductId, lotSerial, direction, asOf, maxDepth };
}

/** GET /Integration/Trace, /events, /recall, /fsma204: a lot's chain across accounts, a node's events, what a recall must reach, the FDA's spreadsheet of it. */
export function traceRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.get('/Integration/Trace', validate({ query: traceQuery }), async (ctx) => {
    const { query } = ctx.state.input;
    const traced = await traceLot(ctx.deps.sequelize, requestOf(ctx, query));
    if (!traced) throw unknownProduct(query.ProductId);
    const root = { productId: query.ProductId, lotSerial: query.LotSerial, nodes: traced.rootIds };
    ctx.body = presentTrace(traced.trace, root, ctx.state.account.id);
  });

  router.get('/Integration/Trace/recall', validate({ query: recallQuery }), async (ctx) => {
    const { ProductId: productId, LotSerial: lotSerial } = ctx.state.input.query;
    const request = { accountId: ctx.state.account.id, product: productId, lotSerial };
    const reach = await recallReach(ctx.deps.sequelize, request, MAX_TRACE_DEPTH);
    if (!reach) throw unknownProduct(productId);
    ctx.body = presentRecallReach(reach, { productId, lotSerial });
  });

  router.get('/Integration/Trace/events', validate({ query: nodeEventsQuery }), async (ctx) => {
    const { query } = ctx.state.input;
    const found = await traceNodeEvents(ctx.deps.sequelize, requestOf(ctx, query), query.NodeId);
    if (found.kind === 'unknownProduct') throw unknownProduct(query.ProductId);
    if (found.kind === 'unknownNode')
      throw problem('unknown-trace-node', {
        detail: `Node not found: ${query.NodeId}`,
        errors: { NodeId: ['No node of this trace has that id.'] },
      });
    const names = (place: { name: string } | null) => place?.name ?? null;
    ctx.body = {
      node: presentNode(found.node, ctx.state.account.id, shippedTo(found.trace)),
      events: found.lines.map((l) => ({
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
    const rows = await traceFsma204(ctx.deps.sequelize, requestOf(ctx, query));
    if (!rows) throw unknownProduct(query.ProductId);
    await sendSpreadsheet(ctx, `fsma204-${query.LotSerial.replace(/[^A-Za-z0-9._-]+/g, '_')}`, query.format ?? 'csv', {
      csv: () => Readable.from(fsmaCsvChunks(rows)),
      xlsx: () => fsmaXlsx(rows),
    });
  });

  return router;
}

/** `GET /trace`: the page that draws a trace. */
export const tracePageRouter = () => browserPageRouter('/trace', TRACE_PAGE);
