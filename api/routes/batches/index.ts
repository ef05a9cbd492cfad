import Router from '@koa/router';
import { abandonBatch, retryBatch } from '../../../batches/retry';
import {
  batchIdOf,
  findBatch,
  findBatchStatus,
  listBatches,
  type BatchScope,
  type BatchView,
} from '../../../db/repositories/batches';
import { type APIContext, type AppCustom, type AppState } from '../../context';
import { problem, queryTime, validationProblem } from '../../errors';
import { readWhenFinished } from '../../batch-wait';
import { validate } from '../../middleware/validate';
import { pageBody, pageOf } from '../../paging';
import { outcomeProblem } from '../events/batch';
import { acceptedBody } from '../events/presenter';
import { requestWithEpcisOriginals } from '../../../db/repositories/epcis-originals';
import { batchDetailBody, batchSummaryBody, batchUrl } from './presenter';
import { abandonBody, listQuery, showQuery } from '../../../contract/batches/schema';

/** A support key reaches every account's batches; any other key its own account's. */
const scopeOf = (ctx: APIContext): BatchScope =>
  ctx.state.caller.role === 'support' ? 'all' : { accountId: ctx.state.account.id };

/** What support does to other accounts' data is on record: which key, what, on which batch. */
function logSupport(ctx: APIContext, action: string, fields: Record<string, unknown> = {}): void {
  if (ctx.state.caller.role !== 'support') return;
  ctx.deps.logger.info(
    { requestId: ctx.state.requestId, keyId: ctx.state.caller.keyId, supportAction: action, ...fields },
    `support: ${action}`,
  );
}

const noBatch = (ctx: APIContext) =>
  problem('unknown-batch', {
    detail: `No batch ${ctx.params.id} ${ctx.state.caller.role === 'support' ? 'in any account' : 'in this account'}.`,
  });

async function batchOf(ctx: APIContext): Promise<BatchView> {
  const view = await findBatch(scopeOf(ctx), ctx.params.id);
  if (!view) throw noBatch(ctx);
  return view;
}

/**
 * `GET /Integration/Batches`, `GET /Integration/Batches/{id}`, `POST /Integration/Batches/{id}/retry` and
 * `.../abandon`: the batches behind the event endpoints, the retry of a failed one, and (support) giving
 * one up. The CLI (`npm run batch`) runs the same use case (batches/retry.ts).
 */
export function batchesRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.get('/Integration/Batches', validate({ query: listQuery }), async (ctx) => {
    const { query } = ctx.state.input;
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
    ctx.body = pageBody(
      page,
      total,
      views.map((view) => batchSummaryBody(view, ctx.deps.config)),
    );
  });

  router.get('/Integration/Batches/:id', validate({ query: showQuery }), async (ctx) => {
    const { include } = ctx.state.input.query;
    const scope = scopeOf(ctx);
    // The wait reads the status alone, and is on the batch's id whichever name the path gives it (its
    // workflow id names a batch sent with an Idempotency-Key, or an import's, otherwise).
    const id = await batchIdOf(scope, ctx.params.id);
    const waited = id && (await readWhenFinished(ctx, id, () => findBatchStatus(scope, id)));
    const view = waited && (await findBatch(scope, waited.id));
    if (!view) throw noBatch(ctx);
    logSupport(ctx, 'show batch', { batchId: view.batch.id, account: view.accountName, include });
    const request =
      include === 'request' ? await requestWithEpcisOriginals(ctx.deps.sequelize, view.batch.request) : undefined;
    ctx.body = batchDetailBody(view, ctx.deps.config, request);
  });

  router.post('/Integration/Batches/:id/retry', async (ctx) => {
    const original = await batchOf(ctx);
    const retried = await retryBatch(ctx.deps, original.batch.id, original.accountName, ctx.state.requestId);
    if (retried.kind === 'refused') {
      const { refusal } = retried;
      throw problem('batch-not-retryable', {
        detail: refusal.message,
        batchId: original.batch.id,
        retriedBy: refusal.retry,
        replacedBy: refusal.replacedBy,
      });
    }
    const { retry, outcome } = retried;
    ctx.state.batchId = retry.id;
    logSupport(ctx, 'retry batch', {
      batchId: original.batch.id,
      account: original.accountName,
      retryBatchId: retry.id,
    });
    if (outcome.kind === 'notStarted') throw outcomeProblem(retry.id, outcome, batchUrl(retry.id));
    ctx.status = 202;
    ctx.body = { ...acceptedBody(retry), statusUrl: batchUrl(retry.id), retryOf: original.batch.id };
  });

  router.post('/Integration/Batches/:id/abandon', validate({ body: abandonBody }), async (ctx) => {
    if (ctx.state.caller.role !== 'support') {
      throw problem('support-key-required');
    }
    const reason = ctx.state.input.body.Reason.trim();
    if (!reason)
      throw validationProblem({
        Reason: ['Reason is blank: say why the batch is given up on (it is kept with the batch).'],
      });
    const view = await batchOf(ctx);
    const abandoned = await abandonBatch(view.batch.id, reason, ctx.state.caller.keyId);
    if (abandoned.kind === 'refused')
      throw problem('batch-not-abandonable', {
        detail: abandoned.refusal.message,
        batchId: view.batch.id,
        replacedBy: abandoned.refusal.replacedBy,
      });
    logSupport(ctx, 'abandon batch', { batchId: view.batch.id, account: view.accountName, reason });
    ctx.body = batchDetailBody((await findBatch('all', view.batch.id))!, ctx.deps.config);
  });
  return router;
}
