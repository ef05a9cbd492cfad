import Router from '@koa/router';
import { Batch, type BatchMode } from '../../../db/models';
import { findOrCreateBatch, retriesOf } from '../../../db/repositories/batches';
import { type APIContext, type AppCustom, type AppState } from '../../context';
import { badRequest, notFound } from '../../errors';
import { textOf, validate, type InputOf } from '../../middleware/validate';
import { awaitBatchResult, outcomeOf, startBatch, validateBatch } from './batch';
import { acceptedBody, batchStatusBody, createdBody } from './presenter';
import { batchIdParams, eventRuleErrors, eventsBody, IDEMPOTENCY_KEY_ERROR, idempotencyHeaders } from './schema';

const submission = { body: eventsBody, headers: idempotencyHeaders };
const validSubmission = () =>
  validateBatch(submission, { refine: ({ body }) => eventRuleErrors(body.Events), otherError: () => badRequest(IDEMPOTENCY_KEY_ERROR) });

async function submit(ctx: APIContext<InputOf<typeof submission>>, mode: BatchMode): Promise<void> {
  const { body, headers } = ctx.state.input;
  const key = headers['Idempotency-Key'];

  const { account, requestId } = ctx.state;
  const { batch } = await findOrCreateBatch({ accountId: account.id, mode, request: body, eventCount: body.Events.length, idempotencyKey: key, requestId });
  ctx.state.batchId = batch.id;
  const accepted = () => {
    ctx.status = 202;
    ctx.body = acceptedBody(batch);
  };
  // A replay of a finished batch answers its stored outcome, without asking Temporal.
  const finished = batch.status === 'Completed' || batch.status === 'Failed';
  if (mode === 'async') {
    if (!finished) await startBatch(ctx, batch);
    return accepted();
  }
  const outcome = finished ? outcomeOf(batch) : await awaitBatchResult(ctx, batch, await startBatch(ctx, batch));
  if (outcome.done) ctx.body = createdBody(batch.id, outcome.result);
  else accepted();
}

/**
 * `POST /Integration/Events` (waits for the pipeline), `POST /Integration/Events/async` (answers 202 at
 * once) and `GET /Integration/Events/async/{batchId}`. Both POSTs run the same workflow.
 */
export function eventsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.post('/Integration/Events', validSubmission(), (ctx) => submit(ctx, 'sync'));
  router.post('/Integration/Events/async', validSubmission(), (ctx) => submit(ctx, 'async'));
  const noBatch = (batchId: string) => notFound(`No batch ${batchId} in this account.`);
  router.get('/Integration/Events/async/:batchId', validate({ params: batchIdParams }, (_errors, params) => noBatch(textOf(params, 'batchId'))), async (ctx) => {
    const { batchId } = ctx.state.input.params;
    const batch = await Batch.findOne({ where: { id: batchId, accountId: ctx.state.account.id } });
    if (!batch) throw noBatch(batchId);
    ctx.body = batchStatusBody(batch, (await retriesOf([batch.id])).get(batch.id) ?? null);
  });
  return router;
}

