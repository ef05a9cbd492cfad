/**
 * The XML binding of /epcis at the route's border: an XML body is read, guarded against entity tricks,
 * parsed (domain/epcis/xml/read.ts), checked against GS1's XSDs (2.0 or 1.2, by its namespace:
 * platform/epcis-xsd) and turned into the JSON-LD document the capture path already takes
 * (domain/epcis/xml/from-xml.ts); a query answer is turned into XML when the client
 * asks for it with Accept. Everything after (GS1's JSON schema, translation, the pipeline) is the JSON
 * path's.
 *
 * Libraries: saxes parses (domain/epcis/xml/tree.ts: namespace-aware, line and column of each element, no
 * DTD loading, no entity expansion beyond XML's five); libxml2-wasm validates (libxml2's own XSD validator
 * compiled to WebAssembly: real XSD 1.0 validation, no native build, off the event loop in
 * platform/epcis-xsd's worker threads).
 */
import coBody from 'co-body';
import type { Middleware } from 'koa';
import { CBV_XML_FORMATS, type CbvXmlFormat } from '../../../domain/epcis/xml/cbv';
import {
  EPCIS_XML_NAMESPACES,
  jsonLdOfXml,
  versionOfRoot,
  type EpcisXmlVersion,
  type Json,
  type XmlDocument,
} from '../../../domain/epcis/xml/from-xml';
import { dtdIssue, eventCount, parseXml, xsdFaultIssue } from '../../../domain/epcis/xml/read';
import type { XmlElement } from '../../../domain/epcis/xml/tree';
import { queryDocumentXml } from '../../../domain/epcis/xml/to-xml';
import { decodeXml } from '../../../domain/epcis/xml/encoding';
import type { AppCustom, AppState } from '../../context';
import type { ErrorCode } from '../../../contract/error-catalogue';
import { problem, type ApiError } from '../../errors';
import { readingBody } from '../../expect-continue';
import { LIMITS } from '../../../domain/schemas/limits';
import { declaredOver } from '../../limits';
import { bodyTooLarge, jsonValueIssue } from '../../middleware/json-body';
import { gs1HeaderValue } from './headers';
import type { SchemaIssue } from '../../../domain/epcis/json-schema';
import { xsdFaults } from '../../../platform/epcis-xsd/pool';

/** Any context of the /epcis routes, middleware's included. */
export type EpcisContext = Parameters<Middleware<AppState, AppCustom>>[0];

export const XML_MEDIA_TYPES = ['application/xml', 'text/xml'] as const;
/** By the Content-Type alone (ctx.is answers null for an empty body, which is then an empty XML body, a 400). */
export const isXmlRequest = (ctx: EpcisContext): boolean =>
  /^(application|text)\/xml$|^application\/[\w.+-]+\+xml$/.test(ctx.request.type);

/** At most this many XSD errors are listed: past that the document is plainly something else. */
const MAX_XSD_ISSUES = 50;

const refused = (code: ErrorCode, issues: SchemaIssue[]): ApiError => problem(code, { issues });

/** A document of more events than a capture takes, in JSON-LD or XML. */
export const captureLimitExceeded = (count: number, limit: number): ApiError =>
  problem('epcis-capture-limit-exceeded', {
    detail: `The document has ${count} events; a capture takes at most ${limit} (GS1-EPCIS-Capture-Limit).`,
  });

/** GS1's XSD of the document's binding: every fault with the element's XPath-like location and its line. */
async function xsdIssues(text: string, root: XmlElement, version: EpcisXmlVersion): Promise<SchemaIssue[]> {
  let faults;
  try {
    faults = await xsdFaults({ text, version });
  } catch (error) {
    // libxml2 ran out of the memory a validation may take: the document is too large to check, not wrong.
    if (/memory|enlarge|abort/i.test((error as Error).message)) throw problem('epcis-xml-too-large');
    throw error;
  }
  return faults.slice(0, MAX_XSD_ISSUES).map((fault) => xsdFaultIssue(root, fault));
}

/** What an XML capture body says, in JSON-LD, once well-formed, in a known binding and valid against its XSD. */
export interface XmlInput extends XmlDocument {
  root: XmlElement;
}

/**
 * The body's bytes, as co-body (koa-body's reader: limit, Content-Length, gzip) reads them with no
 * encoding (raw-body then answers a Buffer): decodeXml reads them in the document's encoding. Read as
 * Latin-1 and back, a 500-event document cost the API 2 ms more.
 */
async function readBytes(ctx: EpcisContext): Promise<Buffer> {
  if (declaredOver(ctx.req.headers, LIMITS.jsonBodyBytes)) throw bodyTooLarge();
  readingBody(ctx.req, ctx.res);
  try {
    // @types/co-body knows only strings; co-body hands `encoding` to raw-body as it is.
    const raw = { encoding: null, limit: LIMITS.jsonBodyBytes } as unknown as coBody.Options;
    return (await coBody.text(ctx, raw)) as unknown as Buffer;
  } catch (error) {
    const e = error as Error & { status?: number };
    throw e.status === 413 || /too large/i.test(e.message)
      ? bodyTooLarge()
      : problem('unreadable-body', { detail: `The request body could not be read: ${e.message}` });
  }
}

/** Reads and checks an XML capture body; `maxEvents` is the capture limit, checked before the XSD runs. */
export async function xmlInput(ctx: EpcisContext, maxEvents: number): Promise<XmlInput> {
  const decoded = decodeXml(await readBytes(ctx), ctx.request.charset || undefined);
  if ('issue' in decoded) throw refused('epcis-xml-encoding', [{ pointer: '/', message: decoded.issue }]);
  const { text } = decoded;
  if (!text.trim()) throw refused('epcis-empty-body', [{ pointer: '/', message: 'The XML body is empty.' }]);
  const dtd = dtdIssue(text);
  if (dtd) throw refused('epcis-xml-refused', [dtd]);
  const parsed = parseXml(text);
  if ('issue' in parsed) throw refused('epcis-malformed-xml', [parsed.issue]);
  const { root } = parsed;
  const version = versionOfRoot(root);
  if (!version) {
    const got = `${root.namespaceURI ? `{${root.namespaceURI}}` : ''}${root.localName}`;
    throw refused('epcis-not-epcis-document', [
      {
        pointer: `/${root.nodeName}`,
        message: `The root element must be EPCISDocument (or EPCISQueryDocument) of EPCIS 2.0 (${EPCIS_XML_NAMESPACES['2.0']}) or 1.2 (${EPCIS_XML_NAMESPACES['1.2']}); got ${got}.`,
      },
    ]);
  }
  const count = eventCount(root);
  if (count > maxEvents) throw captureLimitExceeded(count, maxEvents);
  // GS1's XSD runs in its own thread while the mapping runs here; its verdict comes first. libxml2 also
  // refuses what the mapping should never walk (over 256 levels deep, a text node over 10 MB): what the
  // mapping makes of such a document, a fault included, is never used.
  const xsd = xsdIssues(text, root, version);
  let mapped: { input: XmlInput } | { fault: unknown };
  try {
    mapped = { input: mappedXml(root, version) };
  } catch (fault) {
    mapped = { fault };
  }
  const issues = await xsd;
  if (issues.length)
    throw problem('epcis-invalid-xml', {
      issues,
      detail: `The document is not valid EPCIS ${version} XML. ${issues.map((i) => i.message).join(' ')}`,
    });
  if ('fault' in mapped) throw mapped.fault;
  return mapped.input;
}

/** The document as the JSON-LD it says (read while the XSD checks it), refused when it says what JSON-LD cannot. */
function mappedXml(root: XmlElement, version: EpcisXmlVersion): XmlInput {
  const converted = jsonLdOfXml(root, version);
  if (converted.issues.length) throw refused('epcis-xml-not-convertible', converted.issues);
  // What the JSON path refuses in any value (a string PostgreSQL cannot store, too long, nested too deeply) is refused here too.
  const valueIssue = jsonValueIssue(converted.document);
  if (valueIssue) {
    const at = /^epcisBody\.eventList\[(\d+)\](.*)$/.exec(valueIssue.field);
    const pointer =
      at && converted.eventPaths[Number(at[1])]
        ? converted.eventPaths[Number(at[1])] + at[2].replace(/\./g, '/')
        : `/${root.nodeName}`;
    throw refused('epcis-unstorable-value', [
      { pointer, message: valueIssue.message.replace(valueIssue.field, pointer) },
    ]);
  }
  return { ...converted, root };
}

/** The GS1-CBV-XML-Format asked for (any letter case), No_Preference when absent. */
const cbvXmlFormatOf = (ctx: EpcisContext): CbvXmlFormat =>
  gs1HeaderValue(ctx, 'GS1-CBV-XML-Format', CBV_XML_FORMATS, 'No_Preference');

/** Whether the client asked for XML (Accept), JSON staying the answer to any other Accept and to none. */
const wantsXml = (ctx: EpcisContext): boolean => {
  const type = ctx.accepts('application/ld+json', 'application/json', ...XML_MEDIA_TYPES);
  return type === 'application/xml' || type === 'text/xml';
};

/** 1.2 when the client asks for it (GS1-EPCIS-Version: 1.2 or 1.2.x, as GDST's 1.2 tooling does), else 2.0. */
const answerVersionOf = (ctx: EpcisContext): EpcisXmlVersion =>
  /^1\.2(\.\d+)?$/.test(ctx.get('GS1-EPCIS-Version').trim()) ? '1.2' : '2.0';

interface QueryDocumentBody {
  type: 'EPCISQueryDocument';
  '@context': unknown[];
  creationDate: string;
  epcisBody: { queryResults: { resultsBody: { eventList: { [key: string]: Json }[] } } };
}
const isQueryDocument = (body: unknown): body is QueryDocumentBody =>
  (body as { type?: unknown } | null)?.type === 'EPCISQueryDocument';

/**
 * Query answers in XML when Accept asks for it: the EPCISQueryDocument the handler made is written as
 * EPCIS 2.0 XML (1.2 when GS1-EPCIS-Version asks, EPC URNs unless GS1-EPC-Format says otherwise), CBV
 * values as GS1-CBV-XML-Format says. Errors stay
 * problem details in JSON, as every error of the service.
 */
export function xmlAnswers(): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    if (ctx.method !== 'GET') return next();
    ctx.vary('Accept');
    if (!wantsXml(ctx)) return next();
    const cbvFormat = cbvXmlFormatOf(ctx);
    const version = answerVersionOf(ctx);
    // EPCIS 1.2 names objects by EPC URNs only: a 1.2 answer asks for them unless the client chose a format.
    if (version === '1.2' && !ctx.get('GS1-EPC-Format').trim())
      ctx.request.headers['gs1-epc-format'] = 'Always_EPC_URN';
    await next();
    if (ctx.status !== 200 || !isQueryDocument(ctx.body)) return;
    const document = ctx.body;
    ctx.body = queryDocumentXml(document.epcisBody.queryResults.resultsBody.eventList, document['@context'], {
      version,
      cbvFormat,
      creationDate: document.creationDate,
    });
    ctx.type = 'application/xml';
    if (version === '1.2') ctx.set('GS1-EPCIS-Version', '1.2.0');
    ctx.set('GS1-CBV-XML-Format', cbvFormat);
  };
}
