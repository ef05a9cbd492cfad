import Router from '@koa/router';
import { jsonEventReader, submitJsonEvents } from '../../../batches/submit-json';
import { type AppCustom, type AppState } from '../../context';
import { outcomeProblem, validateBatch } from '../events/batch';
import { acceptedBody } from '../events/presenter';
import { commissionBody, transformBody } from './presenter';
import { jsonEventsBody } from '../../../contract/json/schema';

/** `POST /Integration/JSON`: URN-based commission and transform events (batches/submit-json.ts), answered when the pipeline is done. */
export function jsonRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.post(
    '/Integration/JSON',
    validateBatch({ body: jsonEventsBody }, { idKey: 'ExternalEventId', checkTheOthers: jsonEventReader }),
    async (ctx) => {
      const { Events: events } = ctx.state.input.body;
      const { account, requestId } = ctx.state;
      const { batch, outcome, translation, stored } = await submitJsonEvents(ctx.deps, { account, requestId, events });
      ctx.state.batchId = batch.id;
      if (outcome.kind === 'pending') {
        ctx.status = 202;
        ctx.body = acceptedBody(batch);
        return;
      }
      if (outcome.kind !== 'completed') throw outcomeProblem(batch.id, outcome);
      ctx.body = stored ? commissionBody(events, outcome.result, translation, stored) : transformBody(outcome.result);
    },
  );
  return router;
}
