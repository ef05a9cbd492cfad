/**
 * POST /epcis/capture and /epcis/events over HTTP: the body (JSON-LD or XML) checked against GS1's
 * schemas, then handed to the capture use case (usecases/capture-epcis.ts), which stores it as a batch
 * of mode 'epcis' run by the same processEventBatch workflow as every other batch. The capture job is
 * that batch: its captureID is the batch id.
 */
import type { Middleware } from 'koa';
import type { Batch } from '../../../db/models';
import type { EpcisVocabulary } from '../../../domain/epcis/master-data';
import { CAPTURE_ERROR_BEHAVIOURS, type CaptureErrorBehaviour, type EpcisEvent } from '../../../domain/epcis/translate';
import { EVENT_TYPES as EPCIS_EVENT_TYPES } from '../../../domain/epcis/xml/from-xml';
import type { BatchOutcome } from '../../../batches/outcome';
import { submitCapture } from '../../../batches/submit';
import { CaptureRefused, type CheckedDocument } from '../../../usecases/capture-epcis';
import type { APIContext, AppCustom } from '../../context';
import { ApiError, problem } from '../../errors';
import { LIMITS } from '../../../domain/schemas/limits';
import { JSON_MEDIA_TYPES } from '../../middleware/json-body';
import { textOf, validate, type ValidatedState } from '../../middleware/validate';
import { unknownHeaderValue } from './headers';
import { gs1SchemaIssues } from '../../../domain/epcis/json-schema';
import { xmlPointer } from '../../../domain/epcis/xml/read';
import { captureHeaders } from '../../../contract/epcis/schema';
import { XML_MEDIA_TYPES, captureLimitExceeded, isXmlRequest, xmlInput, type EpcisContext } from './xml';

/** At most this many events a capture (GS1-EPCIS-Capture-Limit): a batch's bound. */
export const CAPTURE_LIMIT = LIMITS.arrayItems;
/** The bounds of a lot or serial number and of a quantity, as every entrance checks them. */
const CAPTURE_BOUNDS = { idLength: LIMITS.idLength, quantity: LIMITS.quantity };
/** At most this many bytes a capture body (GS1-EPCIS-Capture-File-Size-Limit): the JSON body bound. */
const CAPTURE_FILE_SIZE_LIMIT = LIMITS.jsonBodyBytes;

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

/** A document's events once GS1's schema and the size limit have passed them. */
function checkedDocument(body: unknown): CheckedDocument {
  const list = eventListOf(body);
  if (list && list.events.length > CAPTURE_LIMIT) throw captureLimitExceeded(list.events.length, CAPTURE_LIMIT);
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

/** The parts of POST /epcis/capture on ctx.state.input: the document, then GS1-Capture-Error-Behaviour. */
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
 * An XML body (./xml.ts) as the JSON-LD the JSON path checks: GS1's JSON schema and every
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
    const leftOut = xml.leftOut;
    if (kind === 'document') return { ...checkedDocument(xml.document), pointerOf, leftOut };
    return { ...checkedEvent({ '@context': xml.document['@context'], ...events[0] }), pointerOf, leftOut };
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
 * Stores the capture as a batch and runs it (batches/submit.ts), waiting for its outcome when asked; a
 * rule it breaks is a 400, nothing stored.
 */
export async function submitCheckedCapture(
  ctx: APIContext,
  document: CheckedDocument,
  behaviour: CaptureErrorBehaviour,
  options: { wait: boolean },
): Promise<{ batch: Batch; outcome: BatchOutcome }> {
  const { account, requestId } = ctx.state;
  const deps = { ...ctx.deps, urnDomain: ctx.deps.config.urnDomain, bounds: CAPTURE_BOUNDS };
  try {
    const submitted = await submitCapture(deps, { account, requestId, document, behaviour }, options);
    ctx.state.batchId = submitted.batch.id;
    return submitted;
  } catch (error) {
    if (error instanceof CaptureRefused) throw problem('epcis-rule-broken', { issues: error.issues });
    throw error;
  }
}
