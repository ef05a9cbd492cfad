/**
 * Capturing EPCIS events: the document is checked (GS1's schema, then the rules a schema cannot state),
 * its events translated into the pipeline's batch-style events (domain/epcis/translate.ts), stored as
 * a batch of mode 'epcis' and run by the same processEventBatch workflow as every other batch. The
 * capture job is that batch: its captureID is the batch id.
 */
import { randomUUID } from 'node:crypto';
import type { Batch } from '../../../db/models';
import { findOrCreateBatch } from '../../../db/repositories/batches';
import { existingEventIds, findEpcisEntities } from '../../../db/repositories/epcis-entities';
import { referencedIdentifiers, translateEpcisEvents, type CapturedEvent, type EpcisEvent } from '../../../domain/epcis/translate';
import type { BatchError } from '../../../workflows/contracts';
import type { Middleware } from 'koa';
import type { APIContext, AppCustom, AppState } from '../../context';
import { JSON_MEDIA_TYPES, jsonBody } from '../../middleware/json-body';
import { LIMITS } from '../../limits';
import { ApiError, problem } from '../../errors';
import { XML_MEDIA_TYPES, isXmlRequest, xmlInput, xmlPointer, type EpcisContext } from './xml';
import { CAPTURE_LIMIT_EXCEEDED, VALIDATION_EXCEPTION, epcisProblem } from './presenter';
import { CAPTURE_ERROR_BEHAVIOURS, gs1SchemaIssues, type CaptureErrorBehaviour, type SchemaIssue } from './schema';

/** At most this many events a capture (GS1-EPCIS-Capture-Limit): a batch's bound. */
const CAPTURE_LIMIT = LIMITS.arrayItems;
/** At most this many bytes a capture body (GS1-EPCIS-Capture-File-Size-Limit): the JSON body bound. */
const CAPTURE_FILE_SIZE_LIMIT = LIMITS.jsonBodyBytes;

/** The stored request of an 'epcis' batch: `Events` is what the pipeline reads, the rest the capture job's. */
export interface EpcisCaptureRequest {
  Events: CapturedEvent[];
  captureErrorBehaviour: CaptureErrorBehaviour;
  /** Events left out under `proceed` (their eventID was already captured), as the job reports them. */
  rejected: BatchError[];
  /** Identifiers (Digital Link URIs) of the products and locations the capture creates. */
  created: { products: string[]; locations: string[] };
}

/** The standard's limits, on every capture answer and on OPTIONS /epcis/capture. */
export function setCaptureLimitHeaders(ctx: APIContext): void {
  ctx.set('GS1-EPCIS-Capture-Limit', String(CAPTURE_LIMIT));
  ctx.set('GS1-EPCIS-Capture-File-Size-Limit', String(CAPTURE_FILE_SIZE_LIMIT));
}

/** The event list of an EPCISDocument or an EPCISQueryDocument, and the JSON pointer it sits at. */
function eventListOf(body: unknown): { events: unknown[]; pointer: string } | undefined {
  const document = body as { type?: unknown; epcisBody?: { eventList?: unknown; queryResults?: { resultsBody?: { eventList?: unknown } } } } | null;
  if (!document || typeof document !== 'object') return undefined;
  if (document.type === 'EPCISDocument' && Array.isArray(document.epcisBody?.eventList)) return { events: document.epcisBody.eventList, pointer: '/epcisBody/eventList' };
  const results = document.epcisBody?.queryResults?.resultsBody?.eventList;
  if (document.type === 'EPCISQueryDocument' && Array.isArray(results)) return { events: results, pointer: '/epcisBody/queryResults/resultsBody/eventList' };
  return undefined;
}

export function captureErrorBehaviourOf(ctx: APIContext): CaptureErrorBehaviour {
  const value = ctx.get('GS1-Capture-Error-Behaviour').trim() || 'rollback';
  if (!(CAPTURE_ERROR_BEHAVIOURS as readonly string[]).includes(value)) {
    throw epcisProblem(400, VALIDATION_EXCEPTION, `GS1-Capture-Error-Behaviour must be rollback or proceed (got "${value}").`, [
      { pointer: '', message: 'GS1-Capture-Error-Behaviour must be rollback or proceed.' },
    ]);
  }
  return value as CaptureErrorBehaviour;
}

/** The namespace definitions of a document's @context (its extensions' prefixes); the GS1 context is implied. */
function namespacesOf(body: unknown): unknown[] {
  const context = (body as { '@context'?: unknown })['@context'];
  return (Array.isArray(context) ? context : [context]).filter((entry) => entry !== null && typeof entry === 'object');
}

export interface CheckedDocument {
  events: EpcisEvent[];
  /** JSON pointer of each event in the request body. */
  pointerOf: (index: number) => string;
  namespaces: unknown[];
}

/** A document's events once GS1's schema and the size limit have passed them. */
function checkedDocument(body: unknown): CheckedDocument {
  const list = eventListOf(body);
  if (list && list.events.length > CAPTURE_LIMIT) {
    throw epcisProblem(413, CAPTURE_LIMIT_EXCEEDED, `The document has ${list.events.length} events; a capture takes at most ${CAPTURE_LIMIT} (GS1-EPCIS-Capture-Limit).`);
  }
  const issues = gs1SchemaIssues(body);
  if (!list && !issues.length) issues.push({ pointer: '/type', message: 'The body must be an EPCISDocument or an EPCISQueryDocument with an event list.' });
  if (issues.length) throw epcisProblem(400, VALIDATION_EXCEPTION, 'The document is not valid EPCIS 2.0 JSON: nothing was captured.', issues);
  return { events: list!.events as EpcisEvent[], pointerOf: (index) => `${list!.pointer}/${index}`, namespaces: namespacesOf(body) };
}

export const EPCIS_EVENT_TYPES = ['ObjectEvent', 'AggregationEvent', 'TransactionEvent', 'TransformationEvent', 'AssociationEvent'] as const;

/** POST /epcis/events: one event (with its own @context), checked by GS1's schema like a document's. */
function checkedEvent(body: unknown): CheckedDocument {
  const type = (body as { type?: unknown } | null)?.type;
  const issues = typeof type === 'string' && (EPCIS_EVENT_TYPES as readonly string[]).includes(type)
    ? gs1SchemaIssues(body)
    : [{ pointer: '/type', message: `/type must be one of ${EPCIS_EVENT_TYPES.join(', ')}: this resource takes one event (POST /epcis/capture takes documents).` }];
  if (issues.length) throw epcisProblem(400, VALIDATION_EXCEPTION, 'The event is not valid EPCIS 2.0 JSON: nothing was captured.', issues);
  return { events: [body as EpcisEvent], pointerOf: () => '', namespaces: namespacesOf(body) };
}

/**
 * An XML body (api/routes/epcis/xml.ts) as the JSON-LD the JSON path checks: GS1's JSON schema and every
 * rule after it then name the XML element (its XPath-like location) instead of a JSON pointer.
 */
async function checkedXml(ctx: EpcisContext, kind: 'document' | 'event'): Promise<CheckedDocument> {
  const xml = await xmlInput(ctx, CAPTURE_LIMIT);
  const events = xml.document.epcisBody.eventList;
  if (kind === 'event' && events.length !== 1) {
    throw epcisProblem(400, VALIDATION_EXCEPTION, 'POST /epcis/events takes one event: nothing was captured.', [
      { pointer: `/${xml.root.nodeName}/EPCISBody/EventList`, message: `The EPCISDocument must hold exactly one event (it holds ${events.length}); POST /epcis/capture takes more.` },
    ]);
  }
  const pointerOf = (index: number) => xml.eventPaths[index];
  try {
    if (kind === 'document') return { ...checkedDocument(xml.document), pointerOf };
    return { ...checkedEvent({ '@context': xml.document['@context'], ...events[0] }), pointerOf };
  } catch (error) {
    const body = error instanceof ApiError ? (error.body as { title?: string; detail?: string; errors?: Record<string, string[]> }) : undefined;
    if (!body?.errors) throw error;
    const prefix = kind === 'event' ? '/epcisBody/eventList/0' : '';
    // The messages name JSON pointers of the JSON-LD the XML was read as: the XML element is what the sender knows.
    const inXml = (text: string) => text.replace(/\/epcisBody\/eventList\/\d+[^\s]*/g, (pointer) => xmlPointer(pointer, xml.eventPaths));
    body.errors = Object.fromEntries(Object.entries(body.errors).map(([pointer, messages]) => [xmlPointer(prefix + (pointer === '/' ? '' : pointer), xml.eventPaths), messages.map(inXml)]));
    if (body.detail) body.detail = inXml(body.detail);
    if (body.title) body.title = body.title.replace('is not valid EPCIS 2.0 JSON', 'read as EPCIS 2.0 JSON-LD (GS1’s mapping) is not valid against GS1’s JSON schema');
    throw error;
  }
}

/**
 * Reads the JSON (or JSON-LD) body, or the XML one, and checks it, as the validate middleware does for
 * our own schemas: the handler finds the CheckedDocument with inputOf(ctx).
 */
const checked =
  (check: (body: unknown) => CheckedDocument, kind: 'document' | 'event'): Middleware<AppState, AppCustom> =>
  async (ctx, next) => {
    if (isXmlRequest(ctx)) {
      ctx.state.input = await checkedXml(ctx, kind);
      return next();
    }
    if (ctx.request.type && !ctx.is(...JSON_MEDIA_TYPES, '+json')) {
      throw problem(415, `The body must be EPCIS JSON-LD or EPCIS XML: send Content-Type: application/ld+json or application/xml (got ${ctx.request.type}).`, {
        accepted: [...JSON_MEDIA_TYPES, 'application/ld+json', ...XML_MEDIA_TYPES],
      });
    }
    return jsonBody()(ctx, async () => {
      ctx.state.input = check((ctx.request as { body?: unknown }).body);
      await next();
    });
  };

/** POST /epcis/capture: an EPCISDocument or EPCISQueryDocument, in JSON-LD or XML. */
export const validDocument = (): Middleware<AppState, AppCustom> => checked(checkedDocument, 'document');
/** POST /epcis/events: one event (in XML, an EPCISDocument of one event). */
export const validEvent = (): Middleware<AppState, AppCustom> => checked(checkedEvent, 'event');

/**
 * Stores the capture as a batch (not yet started): what the schema cannot check is checked first (event
 * times, eventIDs repeated in the document), and answered 400 with nothing stored.
 */
export async function storeCapture(ctx: APIContext, { events, pointerOf, namespaces }: CheckedDocument, behaviour: CaptureErrorBehaviour): Promise<Batch> {
  const { account, requestId } = ctx.state;
  const { sequelize } = ctx.deps;
  const issues: SchemaIssue[] = [];
  const seen = new Map<string, number>();
  events.forEach((event, index) => {
    if (!event.eventID) return;
    const first = seen.get(event.eventID);
    if (first !== undefined) issues.push({ pointer: `${pointerOf(index)}/eventID`, message: `eventID ${event.eventID} is also the eventID of event ${first}.` });
    else seen.set(event.eventID, index);
  });
  const known = await findEpcisEntities(sequelize, account, referencedIdentifiers(events));
  // An event without an eventID gets one now, stored with the document: a retried step sees the same one.
  const translation = translateEpcisEvents(events, known, {
    eventIds: events.map(() => `urn:uuid:${randomUUID()}`),
    pointerOf,
    context: namespaces,
    bounds: { idLength: LIMITS.idLength, quantity: LIMITS.quantity },
  });
  issues.push(...translation.issues);
  if (issues.length) throw epcisProblem(400, VALIDATION_EXCEPTION, 'The document breaks a rule of EPCIS 2.0: nothing was captured.', issues);

  let captured = translation.events;
  const rejected: BatchError[] = [];
  if (behaviour === 'proceed') {
    // Greedy capture: an event already in the account is reported and left out instead of failing the rest.
    const existing = await existingEventIds(sequelize, account.id, captured.map((e) => e.Id));
    captured = captured.filter((event, index) => {
      // An error declaration repeats its event's eventID by design; its own row has an id of its own.
      if (event.EpcisDeclarationOf || !existing.has(event.Id)) return true;
      rejected.push({ index, eventId: event.Id, code: 'DuplicateEventId', field: 'eventID', message: `An event with eventID ${event.Id} was already captured in this account.` });
      return false;
    });
  }
  const request: EpcisCaptureRequest = { Events: captured, captureErrorBehaviour: behaviour, rejected, created: translation.created };
  const { batch } = await findOrCreateBatch({ accountId: account.id, mode: 'epcis', request, eventCount: captured.length, requestId });
  ctx.state.batchId = batch.id;
  return batch;
}
