/**
 * The event resources of the EPCIS REST binding: POST /epcis/events (one event, captured through the
 * pipeline and answered once stored), GET /epcis/events (the standard's query parameters, answered as
 * an EPCISQueryDocument) and GET /epcis/events/{eventID}.
 */
import type { ErrorObject } from 'ajv';
import {
  QUANTITY_COMPARISONS,
  findEpcisEvents,
  type EpcisEventFilter,
  type MatchKind,
  type QuantityComparison,
  type TimeComparison,
} from '../../../db/queries/epcis-events';
import { epcPatternOf } from '../../../domain/epcis/identifiers';
import { GS1_CONTEXT, epcisQueryDocument } from '../../../db/queries/epcis-documents';
import type { EpcisEvent } from '../../../domain/epcis/translate';
import { type APIContext } from '../../context';
import { problem } from '../../errors';
import { runBatch } from '../../../batches/submit';
import { outcomeProblem } from '../events/batch';
import type { FromSchema } from 'json-schema-to-ts';
import { textOf, validate, type InputOf } from '../../middleware/validate';
import { storeCapture, type CheckedDocument } from './capture';
import { CBV_FORMATS } from '../../../domain/epcis/cbv-forms';
import { gs1HeaderValue, unknownHeaderValue } from './headers';
import { nextPageLink, seqOfToken } from './paging';
import { captureLocation, eventLocation, queryProblem } from './presenter';
import {
  EPC_FORMATS,
  epcFormatHeader,
  eventsQuery,
  eventsPerPageOf,
  type EpcFormat,
  type EpcisCaptureRequest,
  type EventsQuery,
} from './schema';

export { GS1_CONTEXT };

/** A GS1 header the middleware refused: the one ajv named (GS1-EPC-Format or GS1-CBV-XML-Format), with its allowed values. */
export const headerProblem = (errors: ErrorObject[], input: unknown) => {
  const name = errors[0]?.instancePath.slice(1) === 'GS1-CBV-XML-Format' ? 'GS1-CBV-XML-Format' : 'GS1-EPC-Format';
  const allowed = name === 'GS1-EPC-Format' ? EPC_FORMATS : CBV_FORMATS;
  const value = textOf(input, name);
  return unknownHeaderValue(name, allowed, value);
};

/** GET /epcis/events and every /events of a top-level resource: the query parameters, then GS1-EPC-Format. */
const eventsRequest = { query: eventsQuery, headers: epcFormatHeader };
export type EventsRequest = InputOf<typeof eventsRequest>;
export const validEventsQuery = () =>
  validate(eventsRequest, (errors, input, source) =>
    source === 'headers' ? headerProblem(errors, input) : queryProblem(errors),
  );
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

const split = (value: string | undefined): string[] | undefined => {
  if (value === undefined) return undefined;
  const values = value
    .split('|')
    .map((v) => v.trim())
    .filter(Boolean);
  return values.length ? values : undefined;
};
/** A date-time the schema let through but a Date cannot hold (a leap second) is a 400 too, never a 500. */
function timeOf(query: EventsQuery, name: `${TimeComparison}_${'eventTime' | 'recordTime'}`): Date | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime()))
    throw problem('epcis-invalid-query-time', {
      detail: `${name} is not a date-time this service can compare.`,
      issues: [{ pointer: `/${name}`, message: `${name} "${value}" is not a valid date-time.` }],
    });
  return time;
}

const MATCH_PARAMS: [keyof EventsQuery, MatchKind][] = [
  ['MATCH_epc', 'epc'],
  ['MATCH_parentID', 'parentID'],
  ['MATCH_inputEPC', 'inputEPC'],
  ['MATCH_outputEPC', 'outputEPC'],
  ['MATCH_anyEPC', 'anyEPC'],
  ['MATCH_epcClass', 'epcClass'],
  ['MATCH_inputEPCClass', 'inputEPCClass'],
  ['MATCH_outputEPCClass', 'outputEPCClass'],
  ['MATCH_anyEPCClass', 'anyEPCClass'],
];

/** The query parameters as a filter of the account's events; `fixed` is what a top-level resource adds. */
export function filterOf(
  accountId: string,
  query: EventsQuery,
  fixed: Partial<EpcisEventFilter> = {},
): EpcisEventFilter {
  const match: Partial<Record<MatchKind, string[]>> = {};
  for (const [param, kind] of MATCH_PARAMS) {
    const values = split(query[param]);
    const unreadable = values?.find((value) => epcPatternOf(value) === null);
    if (unreadable) {
      throw problem('epcis-unreadable-epc-pattern', {
        detail: `${param} has an EPC pattern this service cannot read.`,
        issues: [
          {
            pointer: `/${param}`,
            message: `${param} "${unreadable}" is not an EPC pattern such as urn:epc:idpat:sgtin:4012345.012345.* or urn:epc:idpat:sgtin:4012345.*.*.`,
          },
        ],
      });
    }
    if (values) match[kind] = values;
  }
  const quantity: Partial<Record<QuantityComparison, number>> = {};
  for (const comparison of Object.keys(QUANTITY_COMPARISONS) as QuantityComparison[]) {
    const value = query[`${comparison}_quantity`];
    if (value !== undefined) quantity[comparison] = Number(value);
  }
  return {
    accountId,
    eventType: split(query.eventType),
    GE_eventTime: timeOf(query, 'GE_eventTime'),
    GT_eventTime: timeOf(query, 'GT_eventTime'),
    LE_eventTime: timeOf(query, 'LE_eventTime'),
    LT_eventTime: timeOf(query, 'LT_eventTime'),
    GE_recordTime: timeOf(query, 'GE_recordTime'),
    GT_recordTime: timeOf(query, 'GT_recordTime'),
    LE_recordTime: timeOf(query, 'LE_recordTime'),
    LT_recordTime: timeOf(query, 'LT_recordTime'),
    EQ_action: split(query.EQ_action),
    EQ_bizStep: split(query.EQ_bizStep),
    EQ_disposition: split(query.EQ_disposition),
    EQ_readPoint: split(query.EQ_readPoint),
    EQ_bizLocation: split(query.EQ_bizLocation),
    WD_readPoint: split(query.WD_readPoint),
    WD_bizLocation: split(query.WD_bizLocation),
    EQ_eventID: split(query.EQ_eventID),
    EQ_transformationID: split(query.EQ_transformationID),
    EXISTS_errorDeclaration: query.EXISTS_errorDeclaration === 'true',
    EQ_errorReason: split(query.EQ_errorReason),
    EQ_correctiveEventID: split(query.EQ_correctiveEventID),
    quantity,
    EQ_persistentDisposition_set: split(query.EQ_persistentDisposition_set),
    EQ_persistentDisposition_unset: split(query.EQ_persistentDisposition_unset),
    match,
    afterSeq: seqOfToken(query.nextPageToken),
    limit: eventsPerPageOf(query),
    ...fixed,
  };
}

/** GET /epcis/events and every top-level resource's /events: one page, the next one in Link. */
export async function answerEvents(
  ctx: APIContext<EventsRequest>,
  fixed: Partial<EpcisEventFilter> = {},
): Promise<void> {
  const format = epcFormatOf(ctx);
  const { query } = ctx.state.input;
  const page = await findEpcisEvents(ctx.deps.sequelize, filterOf(ctx.state.account.id, query, fixed));
  nextPageLink(ctx, page.nextSeq);
  ctx.body = await queryDocument(ctx, format, page.events, page.namespaces);
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
  const batch = await storeCapture(ctx, ctx.state.input.body, 'rollback');
  const eventID = (batch.request as EpcisCaptureRequest).Events[0].Id;
  const outcome = await runBatch(ctx.deps, batch, {
    accountName: ctx.state.account.name,
    wait: true,
    requestId: ctx.state.requestId,
  });
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
