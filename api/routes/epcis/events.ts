/**
 * The event resources of the EPCIS REST binding: POST /epcis/events (one event, captured through the
 * pipeline and answered once stored), GET /epcis/events (the standard's query parameters, answered as
 * an EPCISQueryDocument) and GET /epcis/events/{eventID}.
 */
import { QUANTITY_COMPARISONS, findEpcisEvents, knownCompanyPrefixes, type EpcisEventFilter, type MatchKind, type QuantityComparison, type TimeComparison } from '../../../db/queries/epcis-events';
import { companyPrefixCandidates, companyPrefixOfUrn, epcPatternOf, identifiersOfEvent, withDigitalLinks, withEpcUrns } from '../../../domain/epcis/identifiers';
import { CBV_FORMATS } from '../../../domain/epcis/cbv-forms';
import type { EpcisEvent } from '../../../domain/epcis/translate';
import { inputOf, type APIContext } from '../../context';
import { ApiError } from '../../errors';
import { awaitBatchResult, startBatch } from '../events/batch';
import type { BatchError } from '../../../workflows/contracts';
import { storeCapture, type CheckedDocument, type EpcisCaptureRequest } from './capture';
import { gs1HeaderValue } from './headers';
import { nextPageLink, seqOfToken } from './paging';
import { NO_SUCH_RESOURCE, QUERY_PARAMETER_EXCEPTION, VALIDATION_EXCEPTION, captureLocation, epcisProblem, eventLocation } from './presenter';
import { EPC_FORMATS, perPageOf, type EpcFormat, type EventsQuery } from './schema';

export const GS1_CONTEXT = 'https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld';

/** Absent, GS1-EPC-Format is Always_GS1_Digital_Link, as GS1's REST binding says. */
const epcFormatOf = (ctx: APIContext): EpcFormat => gs1HeaderValue(ctx, 'GS1-EPC-Format', EPC_FORMATS, 'Always_GS1_Digital_Link');

/**
 * The events with identifiers in the format asked for. No_Preference and Never_Translates answer them as
 * captured. Always_EPC_URN turns a Digital Link into a URN only where its company prefix is known (a
 * Digital Link does not say where it ends): from a URN of the same company among these events or
 * among the account's captured events; any other stays as captured.
 */
async function inFormat(ctx: APIContext, format: EpcFormat, events: EpcisEvent[]): Promise<EpcisEvent[]> {
  if (format === 'Always_GS1_Digital_Link') return events.map(withDigitalLinks);
  if (format !== 'Always_EPC_URN') return events;
  const identifiers = events.flatMap(identifiersOfEvent);
  const prefixes = new Set(identifiers.flatMap((identifier) => companyPrefixOfUrn(identifier) ?? []));
  const unknown = [...new Set(identifiers.flatMap(companyPrefixCandidates))].filter((candidate) => !prefixes.has(candidate));
  for (const prefix of await knownCompanyPrefixes(ctx.deps.sequelize, ctx.state.account.id, unknown)) prefixes.add(prefix);
  return events.map((event) => withEpcUrns(event, prefixes));
}

/** The answer to every event query: an EPCISQueryDocument, identifiers in the format asked for. */
async function queryDocument(ctx: APIContext, format: EpcFormat, events: EpcisEvent[], namespaces: unknown[]) {
  ctx.set('GS1-EPC-Format', format);
  // It governs CBV values in XML; GS1's JSON binding has CBV terms as bare words whatever it says (its schema refuses the URN forms).
  const cbvFormat = gs1HeaderValue(ctx, 'GS1-CBV-XML-Format', CBV_FORMATS);
  if (cbvFormat) ctx.set('GS1-CBV-XML-Format', cbvFormat);
  return {
    '@context': [GS1_CONTEXT, ...namespaces],
    type: 'EPCISQueryDocument',
    schemaVersion: '2.0',
    creationDate: new Date().toISOString(),
    epcisBody: {
      queryResults: {
        queryName: 'SimpleEventQuery',
        resultsBody: { eventList: await inFormat(ctx, format, events) },
      },
    },
  };
}

const split = (value: string | undefined): string[] | undefined => {
  if (value === undefined) return undefined;
  const values = value.split('|').map((v) => v.trim()).filter(Boolean);
  return values.length ? values : undefined;
};
/** A date-time the schema let through but a Date cannot hold (a leap second) is a 400 too, never a 500. */
function timeOf(query: EventsQuery, name: `${TimeComparison}_${'eventTime' | 'recordTime'}`): Date | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw epcisProblem(400, QUERY_PARAMETER_EXCEPTION, `${name} is not a date-time this service can compare.`, [{ pointer: `/${name}`, message: `${name} "${value}" is not a valid date-time.` }]);
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
function filterOf(ctx: APIContext, query: EventsQuery, fixed: Partial<EpcisEventFilter> = {}): EpcisEventFilter {
  const match: Partial<Record<MatchKind, string[]>> = {};
  for (const [param, kind] of MATCH_PARAMS) {
    const values = split(query[param]);
    const unreadable = values?.find((value) => epcPatternOf(value) === null);
    if (unreadable) {
      throw epcisProblem(400, QUERY_PARAMETER_EXCEPTION, `${param} has an EPC pattern this service cannot read.`, [
        { pointer: `/${param}`, message: `${param} "${unreadable}" is not an EPC pattern such as urn:epc:idpat:sgtin:4012345.012345.* or urn:epc:idpat:sgtin:4012345.*.*.` },
      ]);
    }
    if (values) match[kind] = values;
  }
  const quantity: Partial<Record<QuantityComparison, number>> = {};
  for (const comparison of Object.keys(QUANTITY_COMPARISONS) as QuantityComparison[]) {
    const value = query[`${comparison}_quantity`];
    if (value !== undefined) quantity[comparison] = Number(value);
  }
  return {
    accountId: ctx.state.account.id,
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
    limit: perPageOf(query),
    ...fixed,
  };
}

/** GET /epcis/events and every top-level resource's /events: one page, the next one in Link. */
export async function answerEvents(ctx: APIContext, fixed: Partial<EpcisEventFilter> = {}): Promise<void> {
  const format = epcFormatOf(ctx);
  const query = inputOf<EventsQuery>(ctx);
  const page = await findEpcisEvents(ctx.deps.sequelize, filterOf(ctx, query, fixed));
  nextPageLink(ctx, page.nextSeq);
  ctx.body = await queryDocument(ctx, format, page.events, page.namespaces);
}

export async function getEvent(ctx: APIContext): Promise<void> {
  const format = epcFormatOf(ctx);
  const eventID = ctx.params.eventID;
  const page = await findEpcisEvents(ctx.deps.sequelize, { accountId: ctx.state.account.id, EQ_eventID: [eventID], limit: 1 });
  if (!page.events.length) throw epcisProblem(404, NO_SUCH_RESOURCE, `No event ${eventID} in this account.`);
  ctx.body = await queryDocument(ctx, format, page.events, page.namespaces);
}

/**
 * POST /epcis/events: one event, captured like a one-event document (rollback) and answered 201 once
 * the pipeline stored it; 202 with the capture job when it takes longer than SYNC_WAIT_SECONDS.
 */
export async function postEvent(ctx: APIContext): Promise<void> {
  const batch = await storeCapture(ctx, inputOf<CheckedDocument>(ctx), 'rollback');
  const eventID = (batch.request as EpcisCaptureRequest).Events[0].Id;
  let outcome;
  try {
    outcome = await awaitBatchResult(ctx, batch, await startBatch(ctx, batch, { statusUrl: captureLocation(batch.id) }));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    const errors = (error.body as { errors?: BatchError[] }).errors ?? [];
    throw epcisProblem(400, VALIDATION_EXCEPTION, 'The event could not be captured: nothing was stored.', errors.map((e) => ({ pointer: e.field === 'Id' ? '/eventID' : '', message: e.message })));
  }
  if (!outcome.done) {
    ctx.status = 202;
    ctx.set('Location', captureLocation(batch.id));
    ctx.body = { captureID: batch.id, location: captureLocation(batch.id) };
    return;
  }
  ctx.status = 201;
  ctx.set('Location', eventLocation(eventID));
  ctx.body = { eventID, location: eventLocation(eventID) };
}
