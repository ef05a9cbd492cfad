import Router from '@koa/router';
import type { BatchMode } from '../../../db/models';
import { findAccountBatch, retriesOf } from '../../../db/repositories/batches';
import { batchStyleEvents } from '../../../batches/border-check';
import { submitBatch } from '../../../batches/submit';
import { readWhenFinished } from '../../batch-wait';
import { type APIContext, type AppCustom, type AppState } from '../../context';
import { problem } from '../../errors';
import { outcomeProblem, validateBatch } from './batch';
import { acceptedBody, batchStatusBody, createdBody } from './presenter';
import { eventsBody, eventRuleErrors } from '../../../domain/schemas/events';
import { batchIdParams, idempotencyHeaders } from '../../../contract/events/schema';
import { textOf, validate, type InputOf } from '../../middleware/validate';

const submission = { body: eventsBody, headers: idempotencyHeaders };
const validSubmission = () =>
  validateBatch(submission, {
    refine: ({ body }) => eventRuleErrors(body.Events),
    checkTheOthers: batchStyleEvents,
    otherError: () => problem('invalid-idempotency-key'),
  });

async function submit(ctx: APIContext<InputOf<typeof submission>>, mode: BatchMode): Promise<void> {
  const { body, headers } = ctx.state.input;
  const { account, requestId } = ctx.state;
  const submission = {
    accountId: account.id,
    accountName: account.name,
    mode,
    request: body,
    eventCount: body.Events.length,
    idempotencyKey: headers['Idempotency-Key'],
    requestId,
  };
  const { batch, outcome } = await submitBatch(ctx.deps, submission, { wait: mode === 'sync' });
  ctx.state.batchId = batch.id;
  switch (outcome.kind) {
    case 'notStarted':
      throw outcomeProblem(batch.id, outcome);
    case 'completed':
      // Async answers 202 even for a replay of a finished batch: its status URL has the outcome.
      if (mode === 'async') break;
      ctx.body = createdBody(batch.id, outcome.result);
      return;
    case 'rejected':
    case 'pipelineFailed':
      if (mode === 'async') break;
      throw outcomeProblem(batch.id, outcome);
    case 'pending':
      break;
  }
  ctx.status = 202;
  ctx.body = acceptedBody(batch);
}

/**
 * `POST /Integration/Events` (waits for the pipeline), `POST /Integration/Events/async` (answers 202 at
 * once) and `GET /Integration/Events/async/{batchId}`. Both POSTs run the same workflow.
 */
export function eventsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.post('/Integration/Events', validSubmission(), (ctx) => submit(ctx, 'sync'));
  router.post('/Integration/Events/async', validSubmission(), (ctx) => submit(ctx, 'async'));
  const noBatch = (batchId: string) => problem('unknown-batch', { detail: `No batch ${batchId} in this account.` });
  router.get(
    '/Integration/Events/async/:batchId',
    validate({ params: batchIdParams }, (_errors, params) => noBatch(textOf(params, 'batchId'))),
    async (ctx) => {
      const { batchId } = ctx.state.input.params;
      const batch = await readWhenFinished(ctx, batchId, () => findAccountBatch(ctx.state.account.id, batchId));
      if (!batch) throw noBatch(batchId);
      ctx.body = batchStatusBody(batch, (await retriesOf([batch.id])).get(batch.id) ?? null);
    },
  );
  return router;
}
