import Router from '@koa/router';
import { createRetry, findBatch, listBatches, RetryRefused, type BatchScope, type BatchView } from '../../../db/repositories/batches';
import type { Batch, BatchStatus } from '../../../db/models';
import { inputOf, type APIContext, type AppCustom, type AppState } from '../../context';
import { notFound, problem, queryTime } from '../../errors';
import { validate } from '../../middleware/validate';
import { pageBody, pageOf, type PageQuery } from '../../paging';
import { startBatch } from '../events/batch';
import { acceptedBody } from '../events/presenter';
import { batchDetailBody, batchSummaryBody, batchUrl, type LinkSettings } from './presenter';
import { listQuery, showQuery } from './schema';

interface ListQuery extends PageQuery {
  Status?: BatchStatus;
  Since?: string;
  Account?: string;
}

/** A support key reaches every account's batches; any other key its own account's. */
const scopeOf = (ctx: APIContext): BatchScope => (ctx.state.caller.role === 'support' ? 'all' : { accountId: ctx.state.account.id });

const linksOf = (ctx: APIContext): LinkSettings => ({ temporalUiUrl: ctx.deps.config.temporalUiUrl, temporalNamespace: ctx.deps.config.temporalNamespace });

/** What support does to other accounts' data is on record: which key, what, on which batch. */
function logSupport(ctx: APIContext, action: string, fields: Record<string, unknown> = {}): void {
  if (ctx.state.caller.role !== 'support') return;
  ctx.deps.logger.info({ requestId: ctx.state.requestId, keyId: ctx.state.caller.keyId, supportAction: action, ...fields }, `support: ${action}`);
}

async function batchOf(ctx: APIContext): Promise<BatchView> {
  const view = await findBatch(scopeOf(ctx), ctx.params.id);
  if (!view) throw notFound(`No batch ${ctx.params.id} ${ctx.state.caller.role === 'support' ? 'in any account' : 'in this account'}.`);
  return view;
}

/**
 * `GET /Integration/Batches`, `GET /Integration/Batches/{id}` and `POST /Integration/Batches/{id}/retry`:
 * the batches behind the event endpoints, and the retry of a failed one. The CLI (`npm run batch`)
 * runs the same repository functions (db/repositories/batches.ts).
 */
export function batchesRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.get('/Integration/Batches', validate(listQuery, 'query'), async (ctx) => {
    const query = inputOf<ListQuery>(ctx);
    const page = pageOf(query);
    const scope = scopeOf(ctx);
    const since = queryTime('Since', query.Since);
    const filter = {
      status: query.Status,
      since,
      // An account key's own account is its scope already; naming another finds nothing.
      accountName: query.Account,
    };
    if (scope !== 'all' && query.Account !== undefined && query.Account !== ctx.state.account.name) {
      ctx.body = pageBody(page, 0, []);
      return;
    }
    const { total, views } = await listBatches(scope, filter, page);
    logSupport(ctx, 'list batches', { filter: { ...filter, since: query.Since } });
    const links = linksOf(ctx);
    ctx.body = pageBody(page, total, views.map((view) => batchSummaryBody(view, links)));
  });

  router.get('/Integration/Batches/:id', validate(showQuery, 'query'), async (ctx) => {
    const { include } = inputOf<{ include?: 'request' }>(ctx);
    const view = await batchOf(ctx);
    logSupport(ctx, 'show batch', { batchId: view.batch.id, account: view.accountName, include });
    ctx.body = batchDetailBody(view, linksOf(ctx), include === 'request');
  });

  router.post('/Integration/Batches/:id/retry', async (ctx) => {
    const original = await batchOf(ctx);
    let retry: Batch;
    try {
      retry = await createRetry(original.batch.id, ctx.state.requestId);
    } catch (error) {
      if (!(error instanceof RetryRefused)) throw error;
      throw problem(409, error.message, { batchId: original.batch.id, retriedBy: error.retry });
    }
    ctx.state.batchId = retry.id;
    logSupport(ctx, 'retry batch', { batchId: original.batch.id, account: original.accountName, retryBatchId: retry.id });
    await startBatch(ctx, retry, { accountName: original.accountName, statusUrl: batchUrl(retry.id) });
    ctx.status = 202;
    ctx.body = { ...acceptedBody(retry), statusUrl: batchUrl(retry.id), retryOf: original.batch.id };
  });
  return router;
}
