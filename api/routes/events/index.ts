import Router from '@koa/router';
import type { ErrorObject } from 'ajv';
import { Batch, type BatchMode } from '../../../db/models';
import { findOrCreateBatch } from '../../../db/repositories/batches';
import { parseEventTime, type EventPayload } from '../../../domain/events';
import { locationIdOf } from '../../../domain/master-data';
import { rejectionOf, startBatchWorkflow } from '../../../runtime/batch-workflow';
import type { BatchError } from '../../../workflows/contracts';
import { inputOf, type APIContext, type AppCustom, type AppState } from '../../context';
import { badRequest, notFound, rawError } from '../../errors';
import { fieldOf, messageOf, validate } from '../../middleware/validate';
import { acceptedBody, batchStatusBody, createdBody, rejectedBody } from './presenter';
import { eventsBody } from './schema';

interface EventsBody {
  Events: EventPayload[];
}

/** ajv's errors as the batch error list: the event's index and id, the field inside the event. */
function schemaErrors(errors: ErrorObject[], body: unknown) {
  const events = (body as { Events?: unknown })?.Events;
  const list: BatchError[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // if/then wrappers only repeat what the inner errors already say.
    if (error.keyword === 'if') continue;
    const field = fieldOf(error);
    const match = /^Events\[(\d+)\]\.?(.*)$/.exec(field);
    const index = match ? Number(match[1]) : null;
    const event = index !== null && Array.isArray(events) ? (events[index] as { Id?: unknown }) : undefined;
    const entry: BatchError = {
      index,
      eventId: typeof event?.Id === 'string' ? event.Id : null,
      code: error.keyword === 'required' ? 'Required' : 'InvalidValue',
      field: match ? match[2] || '$' : field || '$',
      message: messageOf(error),
    };
    const key = `${entry.index}|${entry.field}|${entry.message}`;
    if (!seen.has(key)) list.push(entry);
    seen.add(key);
  }
  return rawError(400, rejectedBody(list));
}

/** What a schema cannot say: times that exist in their zone, locations that name an id. */
function semanticErrors(events: EventPayload[]): BatchError[] {
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

  const { account } = ctx.state;
  const { deps } = ctx;
  const { batch } = await findOrCreateBatch({ accountId: account.id, mode, request: body, eventCount: body.Events.length, idempotencyKey: key });
  if (batch.status === 'Completed' || batch.status === 'Failed') {
    // A replay of a finished batch: its stored outcome, without asking Temporal.
    if (mode === 'async') {
      ctx.status = 202;
      ctx.body = acceptedBody(batch);
    } else if (batch.status === 'Completed') ctx.body = createdBody(batchStatusBody(batch).result ?? []);
    else throw rawError(400, rejectedBody(batchStatusBody(batch).errors ?? []));
    return;
  }

  const handle = await startBatchWorkflow(deps.temporal, deps.config.taskQueue, batch.workflowId, {
    batchId: batch.id,
    accountId: account.id,
    accountName: account.name,
    events: body.Events,
  });
  if (mode === 'async') {
    ctx.status = 202;
    ctx.body = acceptedBody(batch);
    return;
  }
  try {
    await handle.result();
    // The workflow's last step wrote the per-event result list to the batch row.
    await batch.reload();
    ctx.body = createdBody(batchStatusBody(batch).result ?? []);
  } catch (error) {
    const rejection = rejectionOf(error);
    if (rejection) throw rawError(400, rejectedBody(rejection));
    throw error;
  }
}

/**
 * `POST /Integration/Events` (waits for the pipeline), `POST /Integration/Events/async` (answers 202 at
 * once) and `GET /Integration/Events/async/{batchId}`. Both POSTs run the same workflow.
 */
export function eventsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.post('/Integration/Events', validate(eventsBody, 'body', schemaErrors), (ctx) => submit(ctx, 'sync'));
  router.post('/Integration/Events/async', validate(eventsBody, 'body', schemaErrors), (ctx) => submit(ctx, 'async'));
  router.get('/Integration/Events/async/:batchId', async (ctx) => {
    const batch = /^[0-9a-f-]{36}$/i.test(ctx.params.batchId)
      ? await Batch.findOne({ where: { id: ctx.params.batchId, accountId: ctx.state.account.id } })
      : null;
    if (!batch) throw notFound(`No batch ${ctx.params.batchId} in this account.`);
    ctx.body = batchStatusBody(batch);
  });
  return router;
}

