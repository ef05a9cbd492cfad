/**
 * The event resources of the EPCIS REST binding: POST /epcis/events (one event, captured through the
 * pipeline and answered once stored), GET /epcis/events (the standard's query parameters, answered as
 * an EPCISQueryDocument) and GET /epcis/events/{eventID}.
 */
import type { ErrorObject } from 'ajv';
import { countEpcisEvents, findEpcisEvents, type EpcisEventFilter } from '../../../db/queries/epcis-events';
import { EpcisQueryRefused, queryFilterOf, queryOrderOf } from '../../../usecases/epcis-query-filter';
import { epcisQueryDocument } from '../../../db/queries/epcis-documents';
import type { EpcisEvent } from '../../../domain/epcis/translate';
import type { Middleware } from 'koa';
import type { APIContext, AppCustom } from '../../context';
import { problem, type ApiError } from '../../errors';
import { outcomeProblem } from '../events/batch';
import type { FromSchema } from 'json-schema-to-ts';
import { textOf, validate, type InputOf, type ToError, type ValidatedState } from '../../middleware/validate';
import { submitCheckedCapture } from './capture';
import type { CheckedDocument, EpcisCaptureRequest } from '../../../usecases/capture-epcis';
import { CBV_FORMATS } from '../../../domain/epcis/cbv-forms';
import { EPC_FORMATS, type EpcFormat } from '../../../domain/epcis/identifiers';
import { lenientQuery } from '../../../domain/epcis/query-parameters';
import { extensionNamespaces, gs1HeaderValue, unknownHeaderValue } from './headers';
import type { Namespaces } from '../../../domain/epcis/event-hash';
import { eventCursorOfToken, invalidPageToken, nextPageLink, orderedEventsToken, seqOfToken } from './paging';
import { captureLocation, eventLocation, queryProblem } from './presenter';
import { epcFormatHeader, eventsQuery, eventsPerPageOf, type EventsQuery } from '../../../contract/epcis/schema';

/** A GS1 header the middleware refused: the one ajv named (GS1-EPC-Format or GS1-CBV-XML-Format), with its allowed values. */
const headerProblem = (errors: ErrorObject[], input: unknown) => {
  const name = errors[0]?.instancePath.slice(1) === 'GS1-CBV-XML-Format' ? 'GS1-CBV-XML-Format' : 'GS1-EPC-Format';
  const allowed = name === 'GS1-EPC-Format' ? EPC_FORMATS : CBV_FORMATS;
  return unknownHeaderValue(name, allowed, textOf(input, name));
};

/** A refused GS1 header as headerProblem answers it, any other part as `other`. */
export const headerOr =
  (other: (errors: ErrorObject[]) => ApiError): ToError =>
  (errors, input, source) =>
    source === 'headers' ? headerProblem(errors, input) : other(errors);

/** GET /epcis/events and every /events of a top-level resource: the query parameters, then GS1-EPC-Format. */
const eventsRequest = { query: eventsQuery, headers: epcFormatHeader };
export type EventsRequest = InputOf<typeof eventsRequest>;
/** The query as GS1 writes it (lenientQuery: the forms real clients send too), then checked. */
export const validEventsQuery = (): Middleware<ValidatedState<typeof eventsRequest>, AppCustom> => {
  const check = validate(eventsRequest, headerOr(queryProblem));
  return (ctx, next) => {
    ctx.query = lenientQuery(ctx.query);
    return check(ctx, next);
  };
};
/** GET /epcis/events/{eventID}: GS1-EPC-Format. */
export const validEventRequest = () => validate({ headers: epcFormatHeader }, headerProblem);

/** Absent, GS1-EPC-Format is Always_GS1_Digital_Link, as GS1's REST binding says. */
export const epcFormatOf = (ctx: APIContext<{ headers: FromSchema<typeof epcFormatHeader> }>): EpcFormat =>
  ctx.state.input.headers['GS1-EPC-Format'] ?? 'Always_GS1_Digital_Link';

/** The answer to every event query: an EPCISQueryDocument, identifiers in the format asked for. */
async function queryDocument(
  ctx: APIContext,
  format: EpcFormat,
  events: EpcisEvent[],
  namespaces: unknown[],
  queryName = 'SimpleEventQuery',
) {
  ctx.set('GS1-EPC-Format', format);
  // It governs CBV values in XML; GS1's JSON binding has CBV terms as bare words whatever it says (its schema refuses the URN forms).
  const cbvFormat = gs1HeaderValue(ctx, 'GS1-CBV-XML-Format', CBV_FORMATS);
  if (cbvFormat) ctx.set('GS1-CBV-XML-Format', cbvFormat);
  return epcisQueryDocument(ctx.deps.sequelize, ctx.state.account.id, format, { events, namespaces }, { queryName });
}

/** A query the schema let through but that cannot be run, as its 400. */
function refusedQuery<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof EpcisQueryRefused) throw problem(error.code, { detail: error.detail, issues: error.issues });
    throw error;
  }
}

/**
 * The query parameters as a filter of the account's events, as many as perPage asks for; `fixed` is what
 * a top-level resource adds.
 */
export function filterOf(
  accountId: string,
  query: EventsQuery,
  namespaces: Namespaces,
  fixed: Partial<EpcisEventFilter> = {},
): EpcisEventFilter {
  return {
    ...refusedQuery(() => queryFilterOf(accountId, query, namespaces)),
    limit: eventsPerPageOf(query),
    ...fixed,
  };
}

/**
 * GET /epcis/events and every top-level resource's /events: one page, the next one in Link. Ordered
 * (orderBy), a page token holds the last event's place in that order and how many events the pages so
 * far held, for eventCountLimit.
 */
export async function answerEvents(
  ctx: APIContext<EventsRequest>,
  fixed: Partial<EpcisEventFilter> = {},
): Promise<void> {
  const { sequelize } = ctx.deps;
  const { query } = ctx.state.input;
  const { order, eventCountLimit, maxEventCount } = refusedQuery(() => queryOrderOf(query));
  const filter: EpcisEventFilter = {
    ...filterOf(ctx.state.account.id, query, extensionNamespaces(ctx, query), fixed),
    order,
  };
  const token = query.nextPageToken;
  let served = 0;
  if (token !== undefined && order) {
    const cursor = eventCursorOfToken(token, order);
    filter.afterKey = { at: cursor.at, seq: cursor.seq };
    served = cursor.served;
  } else if (token !== undefined) filter.afterSeq = seqOfToken(token);
  if (eventCountLimit !== undefined) {
    // A token this service gave out never has the limit reached: the last page has no Link.
    if (served >= eventCountLimit) throw invalidPageToken();
    filter.limit = Math.min(filter.limit, eventCountLimit - served);
  }
  // Counted for the first page: the query is the same on the next ones.
  if (maxEventCount !== undefined && token === undefined) {
    if ((await countEpcisEvents(sequelize, filter, maxEventCount)) > maxEventCount)
      throw problem('epcis-query-too-large', { detail: `More than ${maxEventCount} events match the query.` });
  }
  const page = await findEpcisEvents(sequelize, filter);
  const shown = served + page.events.length;
  const next = page.next;
  if (next && (eventCountLimit === undefined || shown < eventCountLimit))
    nextPageLink(
      ctx,
      order && next.at ? orderedEventsToken(order, { seq: next.seq, at: next.at, served: shown }) : next.seq,
    );
  ctx.body = await queryDocument(ctx, epcFormatOf(ctx), page.events, page.namespaces);
}

export async function getEvent(ctx: APIContext<InputOf<{ headers: typeof epcFormatHeader }>>): Promise<void> {
  const format = epcFormatOf(ctx);
  const eventID = ctx.params.eventID;
  const page = await findEpcisEvents(ctx.deps.sequelize, {
    accountId: ctx.state.account.id,
    EQ_eventID: [eventID],
    limit: 1,
  });
  if (!page.events.length) throw problem('epcis-unknown-event', { detail: `No event ${eventID} in this account.` });
  ctx.body = await queryDocument(ctx, format, page.events, page.namespaces);
}

/**
 * POST /epcis/events: one event, captured like a one-event document (rollback) and answered 201 once
 * the pipeline stored it; 202 with the capture job when it takes longer than SYNC_WAIT_SECONDS.
 */
export async function postEvent(ctx: APIContext<{ body: CheckedDocument }>): Promise<void> {
  const { batch, outcome } = await submitCheckedCapture(ctx, ctx.state.input.body, 'rollback', { wait: true });
  const eventID = (batch.request as EpcisCaptureRequest).Events[0].Id;
  switch (outcome.kind) {
    case 'rejected':
      throw problem('epcis-event-refused', {
        issues: outcome.errors.map((e) => ({ pointer: e.field === 'Id' ? '/eventID' : '', message: e.message })),
      });
    case 'pipelineFailed':
    case 'notStarted':
      throw outcomeProblem(batch.id, outcome, captureLocation(batch.id));
    case 'pending':
      ctx.status = 202;
      ctx.set('Location', captureLocation(batch.id));
      ctx.body = { captureID: batch.id, location: captureLocation(batch.id) };
      return;
    case 'completed':
      break;
  }
  ctx.status = 201;
  ctx.set('Location', eventLocation(eventID));
  ctx.body = { eventID, location: eventLocation(eventID) };
}
