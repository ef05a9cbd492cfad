import Router from '@koa/router';
import { Batch, type BatchMode } from '../../../db/models';
import { findOrCreateBatch, retriesOf } from '../../../db/repositories/batches';
import { parseEventTime, type EventPayload } from '../../../domain/events';
import { locationIdOf } from '../../../domain/master-data';
import type { BatchError } from '../../../workflows/contracts';
import { inputOf, type APIContext, type AppCustom, type AppState } from '../../context';
import { badRequest, notFound, rawError } from '../../errors';
import { awaitBatchResult, outcomeOf, startBatch, validateBatch } from './batch';
import { acceptedBody, batchStatusBody, createdBody, rejectedBody } from './presenter';
import { eventsBody } from './schema';

interface EventsBody {
  Events: EventPayload[];
}

/** What a schema cannot say: times that exist in their zone, locations that name an id. */
export function semanticErrors(events: EventPayload[]): BatchError[] {
  const errors: BatchError[] = [];
  events.forEach((event, index) => {
    const time = parseEventTime(event.EventTime, event.EventTimeZone);
    if (!time.ok) errors.push({ index, eventId: event.Id, code: 'InvalidValue', field: time.field, message: time.message });
    for (const field of ['Location', 'SourceLocation', 'DestinationLocation'] as const) {
      const ref = event[field];
      if (ref && !locationIdOf(ref)) errors.push({ index, eventId: event.Id, code: 'Required', field: `${field}.Id`, message: `${field}.Id is required.` });
    }
  });
  return errors;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

async function submit(ctx: APIContext, mode: BatchMode): Promise<void> {
  const body = inputOf<EventsBody>(ctx);
  const errors = semanticErrors(body.Events);
  if (errors.length) throw rawError(400, rejectedBody(errors));
  const key = ctx.get('Idempotency-Key').trim() || undefined;
  if (key && !IDEMPOTENCY_KEY.test(key)) throw badRequest('Idempotency-Key must be 1 to 200 visible ASCII characters.');

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
  router.post('/Integration/Events', validateBatch(eventsBody), (ctx) => submit(ctx, 'sync'));
  router.post('/Integration/Events/async', validateBatch(eventsBody), (ctx) => submit(ctx, 'async'));
  router.get('/Integration/Events/async/:batchId', async (ctx) => {
    const batch = /^[0-9a-f-]{36}$/i.test(ctx.params.batchId)
      ? await Batch.findOne({ where: { id: ctx.params.batchId, accountId: ctx.state.account.id } })
      : null;
    if (!batch) throw notFound(`No batch ${ctx.params.batchId} in this account.`);
    ctx.body = batchStatusBody(batch, (await retriesOf([batch.id])).get(batch.id) ?? null);
  });
  return router;
}

