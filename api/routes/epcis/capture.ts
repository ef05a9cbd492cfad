/**
 * Capturing EPCIS events: the document is checked (GS1's schema, then the rules a schema cannot state),
 * its events translated into the pipeline's batch-style events (domain/epcis/translate.ts), stored as
 * a batch of mode 'epcis' and run by the same processEventBatch workflow as every other batch. The
 * capture job is that batch: its captureID is the batch id.
 */
import type { BatchError } from '../../../domain/batch-errors';
import { randomUUID } from 'node:crypto';
import type { Batch } from '../../../db/models';
import { findOrCreateBatch } from '../../../db/repositories/batches';
import { existingEventIds, findEpcisEntities, existingEventHashes } from '../../../db/repositories/epcis-entities';
import {
  referencedIdentifiers,
  translateEpcisEvents,
  type EpcisEvent,
  type CapturedEvent,
  separateOriginals,
} from '../../../domain/epcis/translate';
import { insertEpcisOriginals } from '../../../db/repositories/epcis-originals';
import { urnCompanyPrefixes } from '../../../domain/epcis/identifiers';
import type { APIContext, AppCustom } from '../../context';
import { textOf, validate, type ValidatedState } from '../../middleware/validate';
import { applyEpcisMasterData, type ProductDefaults } from '../../../db/repositories/epcis-master-data';
import { epcisMasterDataOf, type EpcisVocabulary } from '../../../domain/epcis/master-data';
import { gdstKdeWarnings } from '../../../domain/epcis/gdst-kdes';
import { eventHashId, namespacesOfContext } from '../../../domain/epcis/event-hash';
import type { Middleware } from 'koa';
import { JSON_MEDIA_TYPES } from '../../middleware/json-body';
import { problem, ApiError } from '../../errors';
import { LIMITS } from '../../limits';
import { XML_MEDIA_TYPES, isXmlRequest, xmlInput, xmlPointer, type EpcisContext } from './xml';
import { unknownHeaderValue } from './headers';
import {
  CAPTURE_ERROR_BEHAVIOURS,
  captureHeaders,
  gs1SchemaIssues,
  type CaptureErrorBehaviour,
  type EpcisCaptureRequest,
  type SchemaIssue,
} from './schema';

/** At most this many events a capture (GS1-EPCIS-Capture-Limit): a batch's bound. */
export const CAPTURE_LIMIT = LIMITS.arrayItems;
/** At most this many bytes a capture body (GS1-EPCIS-Capture-File-Size-Limit): the JSON body bound. */
const CAPTURE_FILE_SIZE_LIMIT = LIMITS.jsonBodyBytes;

/** The unit and identifier type the events give each GTIN the capture creates: what its master data creates it with. */
function productDefaultsOf(events: CapturedEvent[]): ProductDefaults {
  const out = new Map<string, { unit: string; identifierType: 'Lot' | 'Serial' }>();
  for (const event of events) {
    for (const line of [
      ...(event.ProductInstances ?? []),
      ...(event.InputProducts ?? []),
      ...(event.OutputProducts ?? []),
      ...(event.ChildProductInstances ?? []),
    ]) {
      const details = line.Product.Details;
      const gtin = details?.GTIN ?? details?.Gtin;
      if (details && gtin && !out.has(gtin))
        out.set(gtin, { unit: details.SimpleUnitOfMeasurement, identifierType: details.ProductIdentifierType });
    }
  }
  return out;
}

/** The standard's limits, on every capture answer and on OPTIONS /epcis/capture. */
export function setCaptureLimitHeaders(ctx: APIContext): void {
  ctx.set('GS1-EPCIS-Capture-Limit', String(CAPTURE_LIMIT));
  ctx.set('GS1-EPCIS-Capture-File-Size-Limit', String(CAPTURE_FILE_SIZE_LIMIT));
}

/** The event list of an EPCISDocument or an EPCISQueryDocument, and the JSON pointer it sits at. */
function eventListOf(body: unknown): { events: unknown[]; pointer: string } | undefined {
  const document = body as {
    type?: unknown;
    epcisBody?: { eventList?: unknown; queryResults?: { resultsBody?: { eventList?: unknown } } };
  } | null;
  if (!document || typeof document !== 'object') return undefined;
  if (document.type === 'EPCISDocument' && Array.isArray(document.epcisBody?.eventList))
    return { events: document.epcisBody.eventList, pointer: '/epcisBody/eventList' };
  const results = document.epcisBody?.queryResults?.resultsBody?.eventList;
  if (document.type === 'EPCISQueryDocument' && Array.isArray(results))
    return { events: results, pointer: '/epcisBody/queryResults/resultsBody/eventList' };
  return undefined;
}

/** The namespace definitions of a document's @context (its extensions' prefixes); the GS1 context is implied. */
function namespacesOf(body: unknown): unknown[] {
  const context = (body as { '@context'?: unknown })['@context'];
  return (Array.isArray(context) ? context : [context]).filter((entry) => entry !== null && typeof entry === 'object');
}

export interface CheckedDocument {
  events: EpcisEvent[];
  /** epcisHeader.epcisMasterData's vocabularies, and the JSON pointer of their list. */
  vocabularies?: { list: EpcisVocabulary[]; pointer: string };
  /** JSON pointer of each event in the request body. */
  pointerOf: (index: number) => string;
  namespaces: unknown[];
}

/** A document's events once GS1's schema and the size limit have passed them. */
function checkedDocument(body: unknown): CheckedDocument {
  const list = eventListOf(body);
  if (list && list.events.length > CAPTURE_LIMIT) {
    throw problem('epcis-capture-limit-exceeded', {
      detail: `The document has ${list.events.length} events; a capture takes at most ${CAPTURE_LIMIT} (GS1-EPCIS-Capture-Limit).`,
    });
  }
  const issues = gs1SchemaIssues(body);
  if (!list && !issues.length)
    issues.push({
      pointer: '/type',
      message: 'The body must be an EPCISDocument or an EPCISQueryDocument with an event list.',
    });
  if (issues.length) throw problem('epcis-invalid-document', { issues });
  const vocabularies = (body as { epcisHeader?: { epcisMasterData?: { vocabularyList?: EpcisVocabulary[] } } })
    .epcisHeader?.epcisMasterData?.vocabularyList;
  return {
    events: list!.events as EpcisEvent[],
    pointerOf: (index) => `${list!.pointer}/${index}`,
    namespaces: namespacesOf(body),
    ...(vocabularies
      ? { vocabularies: { list: vocabularies, pointer: '/epcisHeader/epcisMasterData/vocabularyList' } }
      : {}),
  };
}

export const EPCIS_EVENT_TYPES = [
  'ObjectEvent',
  'AggregationEvent',
  'TransactionEvent',
  'TransformationEvent',
  'AssociationEvent',
] as const;

/** POST /epcis/events: one event (with its own @context), checked by GS1's schema like a document's. */
function checkedEvent(body: unknown): CheckedDocument {
  const type = (body as { type?: unknown } | null)?.type;
  const issues =
    typeof type === 'string' && (EPCIS_EVENT_TYPES as readonly string[]).includes(type)
      ? gs1SchemaIssues(body)
      : [
          {
            pointer: '/type',
            message: `/type must be one of ${EPCIS_EVENT_TYPES.join(', ')}: this resource takes one event (POST /epcis/capture takes documents).`,
          },
        ];
  if (issues.length) throw problem('epcis-invalid-event', { issues });
  return { events: [body as EpcisEvent], pointerOf: () => '', namespaces: namespacesOf(body) };
}

/**
 * POST /epcis/capture: an EPCISDocument or EPCISQueryDocument checked against GS1's schemas, then
 * GS1-Capture-Error-Behaviour; the handler finds both on ctx.state.input.
 */
const capture = { body: { check: checkedDocument }, headers: captureHeaders };
const behaviourError = (_errors: unknown, headers: unknown) =>
  unknownHeaderValue(
    'GS1-Capture-Error-Behaviour',
    CAPTURE_ERROR_BEHAVIOURS,
    textOf(headers, 'GS1-Capture-Error-Behaviour'),
  );
const captureJson = validate(capture, behaviourError);
const captureXmlHeaders = validate({ headers: captureHeaders }, behaviourError);
const eventJson = validate({ body: { check: checkedEvent } });

/** A body that is neither JSON(-LD) nor XML: the 415 names both. */
function refuseOtherMediaTypes(ctx: EpcisContext): void {
  if (ctx.request.type && !ctx.is(...JSON_MEDIA_TYPES, '+json')) {
    throw problem('epcis-not-epcis-media-type', {
      detail: `The body must be EPCIS JSON-LD or EPCIS XML: send Content-Type: application/ld+json or application/xml (got ${ctx.request.type}).`,
      accepted: [...JSON_MEDIA_TYPES, 'application/ld+json', ...XML_MEDIA_TYPES],
    });
  }
}

/** POST /epcis/capture: an EPCISDocument or EPCISQueryDocument in JSON-LD or XML, then GS1-Capture-Error-Behaviour. */
export const validDocument = (): Middleware<ValidatedState<typeof capture>, AppCustom> => async (ctx, next) => {
  if (!isXmlRequest(ctx)) {
    refuseOtherMediaTypes(ctx);
    return captureJson(ctx, next);
  }
  const body = await checkedXml(ctx, 'document');
  return captureXmlHeaders(ctx, async () => {
    ctx.state.input = { ...ctx.state.input, body };
    await next();
  });
};
/** POST /epcis/events: one event, checked as a one-event document (in XML, an EPCISDocument of one event). */
export const validEvent =
  (): Middleware<ValidatedState<{ body: { check: typeof checkedEvent } }>, AppCustom> => async (ctx, next) => {
    if (!isXmlRequest(ctx)) {
      refuseOtherMediaTypes(ctx);
      return eventJson(ctx, next);
    }
    ctx.state.input = { body: await checkedXml(ctx, 'event') };
    await next();
  };

/**
 * By index, the events (not declarations) whose hash id the account already holds or an earlier event of
 * the document has, with the reason. One resent with the same eventID is left to the eventID checks, which say so.
 */
async function duplicateHashes(
  sequelize: APIContext['deps']['sequelize'],
  accountId: string,
  events: EpcisEvent[],
  hashes: string[],
): Promise<Map<number, string>> {
  const held = await existingEventHashes(
    sequelize,
    accountId,
    hashes.filter((_, i) => !events[i].errorDeclaration),
  );
  const first = new Map<string, number>();
  const out = new Map<number, string>();
  events.forEach((event, index) => {
    if (event.errorDeclaration) return;
    const hash = hashes[index];
    const earlier = first.get(hash);
    const heldAs = held.get(hash);
    if (heldAs !== undefined) {
      if (heldAs !== event.eventID)
        out.set(
          index,
          `The event has the event hash id ${hash}, as the event ${heldAs} this account already holds: it is a duplicate.`,
        );
    } else if (earlier !== undefined) {
      if (events[earlier].eventID === undefined || events[earlier].eventID !== event.eventID)
        out.set(
          index,
          `The event has the event hash id ${hash}, as event ${earlier} of this document: it is a duplicate.`,
        );
    } else first.set(hash, index);
  });
  return out;
}

/**
 * An XML body (api/routes/epcis/xml.ts) as the JSON-LD the JSON path checks: GS1's JSON schema and every
 * rule after it then name the XML element (its XPath-like location) instead of a JSON pointer.
 */
async function checkedXml(ctx: EpcisContext, kind: 'document' | 'event'): Promise<CheckedDocument> {
  const xml = await xmlInput(ctx, CAPTURE_LIMIT);
  const events = xml.document.epcisBody.eventList;
  if (kind === 'event' && events.length !== 1) {
    throw problem('epcis-one-event-only', {
      issues: [
        {
          pointer: `/${xml.root.nodeName}/EPCISBody/EventList`,
          message: `The EPCISDocument must hold exactly one event (it holds ${events.length}); POST /epcis/capture takes more.`,
        },
      ],
    });
  }
  const pointerOf = (index: number) => xml.eventPaths[index];
  try {
    if (kind === 'document') return { ...checkedDocument(xml.document), pointerOf };
    return { ...checkedEvent({ '@context': xml.document['@context'], ...events[0] }), pointerOf };
  } catch (error) {
    const body =
      error instanceof ApiError
        ? (error.body as { code?: string; detail?: string; errors?: Record<string, string[]> })
        : undefined;
    if (!body?.errors) throw error;
    const prefix = kind === 'event' ? '/epcisBody/eventList/0' : '';
    // The messages name JSON pointers of the JSON-LD the XML was read as: the XML element is what the sender knows.
    const inXml = (text: string) =>
      text.replace(/\/epcisBody\/eventList\/\d+[^\s]*/g, (pointer) => xmlPointer(pointer, xml.eventPaths));
    const errors = Object.fromEntries(
      Object.entries(body.errors).map(([pointer, messages]) => [
        xmlPointer(prefix + (pointer === '/' ? '' : pointer), xml.eventPaths),
        messages.map(inXml),
      ]),
    );
    const detail = body.detail && inXml(body.detail);
    if (body.code === 'epcis-invalid-document' || body.code === 'epcis-invalid-event')
      throw problem('epcis-xml-mapping-invalid', { detail, errors });
    Object.assign(body, { errors, detail });
    throw error;
  }
}

/**
 * Stores the capture as a batch (not yet started): what the schema cannot check is checked first (event
 * times, eventIDs repeated in the document), and answered 400 with nothing stored.
 */
export async function storeCapture(
  ctx: APIContext,
  { events, pointerOf, namespaces, vocabularies }: CheckedDocument,
  behaviour: CaptureErrorBehaviour,
): Promise<Batch> {
  const { account, requestId } = ctx.state;
  const { sequelize } = ctx.deps;
  const issues: SchemaIssue[] = [];
  const seen = new Map<string, number>();
  events.forEach((event, index) => {
    if (!event.eventID) return;
    const first = seen.get(event.eventID);
    if (first !== undefined)
      issues.push({
        pointer: `${pointerOf(index)}/eventID`,
        message: `eventID ${event.eventID} is also the eventID of event ${first}.`,
      });
    else seen.set(event.eventID, index);
  });
  const hashes = events.map((event) => eventHashId(event, namespacesOfContext(namespaces)));
  const known = await findEpcisEntities(sequelize, account, referencedIdentifiers(events, hashes));
  // A declaration's own row gets its id now, stored with the document: a retried step sees the same one.
  const translation = translateEpcisEvents(events, known, {
    eventIds: events.map(() => `urn:uuid:${randomUUID()}`),
    hashes,
    pointerOf,
    context: namespaces,
    bounds: { idLength: LIMITS.idLength, quantity: LIMITS.quantity },
  });
  issues.push(...translation.issues);
  const masterData = epcisMasterDataOf(vocabularies?.list ?? [], vocabularies?.pointer ?? '');
  issues.push(...masterData.issues);
  // The same event sent again (with another eventID, or none) is a duplicate: CBV 2.0 event hash ids say so.
  const duplicates = await duplicateHashes(sequelize, account.id, events, hashes);
  if (behaviour === 'rollback') {
    for (const [index, message] of duplicates)
      issues.push({
        pointer: pointerOf(index),
        message: `${message} GS1-Capture-Error-Behaviour: proceed leaves such events out and captures the rest.`,
      });
  }
  if (issues.length) throw problem('epcis-rule-broken', { issues });

  let captured = translation.events;
  const rejected: BatchError[] = [];
  if (behaviour === 'proceed') {
    // Greedy capture: an event already in the account is reported and left out instead of failing the rest.
    const existing = await existingEventIds(
      sequelize,
      account.id,
      captured.map((e) => e.Id),
    );
    captured = captured.filter((event, index) => {
      const duplicate = duplicates.get(index);
      if (duplicate) {
        rejected.push({ index, eventId: event.Id, code: 'DuplicateEventId', field: 'eventID', message: duplicate });
        return false;
      }
      // An error declaration repeats its event's eventID by design; its own row has an id of its own.
      if (event.EpcisDeclarationOf || !existing.has(event.Id)) return true;
      rejected.push({
        index,
        eventId: event.Id,
        code: 'DuplicateEventId',
        field: 'eventID',
        message: `An event with eventID ${event.Id} was already captured in this account.`,
      });
      return false;
    });
  }
  // Applied once the document has passed every check: the events of this capture find the products and locations it names.
  const masterDataChanges = await applyEpcisMasterData(sequelize, account, masterData, {
    self: known.self,
    urnDomain: ctx.deps.config.urnDomain,
    productDefaults: productDefaultsOf(translation.events),
  });
  const createdByMasterData = new Set(
    [...masterDataChanges.products, ...masterDataChanges.locations]
      .filter((c) => c.change === 'created')
      .map((c) => c.id),
  );
  const created = {
    products: translation.created.products.filter((id) => !createdByMasterData.has(id)),
    locations: translation.created.locations.filter((id) => !createdByMasterData.has(id)),
  };
  const left = new Set(rejected.map((r) => r.index));
  const kdeWarnings = gdstKdeWarnings(events, pointerOf, (index) => events[index].eventID ?? hashes[index]).filter(
    (w) => !left.has(w.index),
  );
  // The originals are stored once, apart, in the transaction that stores the batch: the batch's request
  // and (once persisted) each event name theirs.
  const separated = separateOriginals(captured, randomUUID);
  const request: EpcisCaptureRequest = {
    Events: separated.events,
    EpcisCompanyPrefixes: urnCompanyPrefixes(
      separated.originals.map((original) => original.epcis as unknown as Record<string, unknown>),
    ),
    captureErrorBehaviour: behaviour,
    rejected,
    created,
    masterData: masterDataChanges,
    kdeWarnings,
  };
  const { batch } = await sequelize.transaction(async (transaction) => {
    await insertEpcisOriginals(sequelize, account.id, separated.originals, transaction);
    return findOrCreateBatch(
      { accountId: account.id, mode: 'epcis', request, eventCount: captured.length, requestId },
      transaction,
    );
  });
  ctx.state.batchId = batch.id;
  return batch;
}
