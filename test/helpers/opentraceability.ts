import { DOMParser, type Element as XmlElement } from '@xmldom/xmldom';
import { checkDigit } from '../../domain/epcis/identifiers';
import { apiUrl, request } from './http';

/**
 * GDST's reference client (OpenTraceability, github.com/ift-gftc/opentraceability: EPC.ToDigitalLinkURI,
 * GTIN/PGLN.ToDigitalLinkURL, EPCISTraceabilityResolver, EPCISQueryParameters.ToQueryParameters,
 * DigitalLink) as it talks to a service, rewritten here because the library is on neither npm nor Maven
 * Central: the resolver paths it builds from an EPC, the headers it sends, the link objects its JSON mapper
 * accepts (Jackson refuses any other member), the query string it writes and its traceback.
 */

export type EpcisFormat = 'JSON 2.0' | 'XML 2.0' | 'XML 1.2';

/** OpenTraceability's DigitalLink class: exactly these members. */
export const DIGITAL_LINK_MEMBERS = {
  link: 'string',
  title: 'string',
  linkType: 'string',
  ianaLanguage: 'string',
  context: 'string',
  mimeType: 'string',
  active: 'boolean',
  fwqs: 'boolean',
  defaultLinkType: 'boolean',
  defaultIanaLanguage: 'boolean',
  defaultContext: 'boolean',
  defaultMimeType: 'boolean',
  identifier: 'string',
  authRequired: 'boolean',
} as const;

export type DigitalLink = {
  [K in keyof typeof DIGITAL_LINK_MEMBERS]?: (typeof DIGITAL_LINK_MEMBERS)[K] extends 'string' ? string : boolean;
};

/** The mapper's `DigitalLink[]`: an array of objects with no member DigitalLink lacks, each of its type. */
export function parseDigitalLinks(json: unknown): DigitalLink[] {
  if (!Array.isArray(json)) throw new Error(`not an array of DigitalLink: ${JSON.stringify(json).slice(0, 200)}`);
  return json.map((link: unknown) => {
    if (!link || typeof link !== 'object' || Array.isArray(link))
      throw new Error(`not a DigitalLink: ${JSON.stringify(link)}`);
    for (const [name, value] of Object.entries(link)) {
      if (!(name in DIGITAL_LINK_MEMBERS))
        throw new Error(`Unrecognized field "${name}" (class DigitalLink), not marked as ignorable`);
      const type = DIGITAL_LINK_MEMBERS[name as keyof typeof DIGITAL_LINK_MEMBERS];
      if (value !== null && typeof value !== type)
        throw new Error(`DigitalLink.${name} is not a ${type}: ${JSON.stringify(value)}`);
    }
    return link as DigitalLink;
  });
}

/** GTIN.ToDigitalLinkURL: a GS1 GTIN (an `idpat:sgtin` pattern) as `01/<GTIN-14>`, anything else `01/<as it is>`. */
function gtinPath(gtin: string): string {
  if (gtin.includes(':idpat:sgtin:')) {
    const [companyPrefix, itemRef] = gtin.split(':').pop()!.split('.');
    const body = itemRef[0] + companyPrefix + itemRef.slice(1);
    return `01/${body}${checkDigit(body)}`;
  }
  return `01/${gtin}`;
}

/** PGLN.ToDigitalLinkURL. */
export function partyPath(pgln: string): string {
  if (pgln.includes(':id:pgln:') || pgln.includes(':id:sgln:')) {
    const [companyPrefix, partyRef] = pgln.split(':').pop()!.split('.');
    const body = companyPrefix + partyRef;
    return `417/${body}${checkDigit(body)}`;
  }
  return `417/${pgln}`;
}

export type EpcType = 'Class' | 'Instance' | 'SSCC' | 'URI';

/** The EPC constructor's reading: its type, and for a class or instance its GTIN and lot or serial. */
export function epcOf(epc: string): { type: EpcType; gtin?: string; lotOrSerial?: string } {
  const split = (from: string, to: string) => {
    const parts = epc.split(':');
    const last = parts.pop()!.split('.');
    return { gtin: `${parts.join(':')}:${last[0]}.${last[1]}`.replace(from, to), lotOrSerial: last[2] };
  };
  if (epc.startsWith('urn:epc:id:sscc:')) return { type: 'SSCC' };
  if (epc.startsWith('urn:epc:class:lgtin:')) return { type: 'Class', ...split(':class:lgtin:', ':idpat:sgtin:') };
  if (epc.startsWith('urn:epc:id:sgtin:')) return { type: 'Instance', ...split(':id:sgtin:', ':idpat:sgtin:') };
  if (epc.startsWith('urn:') && epc.includes(':product:lot:class:'))
    return { type: 'Class', ...split(':product:lot:class:', ':product:class:') };
  if (epc.startsWith('urn:') && epc.includes(':product:serial:obj:'))
    return { type: 'Instance', ...split(':product:serial:obj:', ':product:class:') };
  if (
    epc.startsWith('urn:sscc:') ||
    (epc.startsWith('urn:') && epc.includes(':lpn:obj:')) ||
    epc.startsWith('urn:epc:id:bic:')
  )
    return { type: 'SSCC' };
  if (epc.startsWith('https://id.gs1.org')) {
    const path = epc.split('?')[0].slice('https://id.gs1.org'.length).split('/').filter(Boolean);
    const keys = new Map<string, string>();
    for (let i = 0; i + 1 < path.length; i += 2) keys.set(path[i], path[i + 1]);
    if (keys.has('00')) return { type: 'SSCC' };
    if (keys.has('01') && keys.has('10')) return { type: 'Class' };
    if (keys.has('01') && keys.has('21')) return { type: 'Instance' };
  }
  return { type: 'URI' };
}

/** EPC.ToDigitalLinkURI: the resolver path of an EPC. */
export function digitalLinkPath(epc: string): string {
  if (epc.startsWith('https://id.gs1.org')) return epc.slice('https://id.gs1.org'.length);
  const parsed = epcOf(epc);
  if (parsed.type === 'Class') return `${gtinPath(parsed.gtin!)}/10/${parsed.lotOrSerial}`;
  if (parsed.type === 'Instance') return `${gtinPath(parsed.gtin!)}/21/${parsed.lotOrSerial}`;
  if (parsed.type === 'SSCC') return `00/${epc}`;
  throw new Error(`Cannot build Digital Link URL with EPC ${epc}. We need either GTIN+LOT, GTIN+SERIAL, or SSCC.`);
}

/** The service's path of a URL it answered (the tests' client takes paths). */
const pathOf = (url: string): string => {
  if (!url.startsWith(apiUrl())) throw new Error(`${url} is not on this service (${apiUrl()})`);
  return url.slice(apiUrl().length);
};

/**
 * GetEPCISQueryInterfaceURL: `<resolver>/<path>?linkType=gs1:epcis` with Accept: application/json; the
 * first link of a 2xx answer, with one trailing slash. Undefined when the answer is not 2xx.
 */
export async function epcisQueryInterfaceUrl(apiKey: string, relativeUrl: string): Promise<string | undefined> {
  const full = `${apiUrl()}/${relativeUrl.replace(/^\/+/, '')}?linkType=gs1:epcis`;
  const response = await request('GET', pathOf(full), { headers: { 'X-API-Key': apiKey, Accept: 'application/json' } });
  if (response.status < 200 || response.status > 299) return undefined;
  const [first] = parseDigitalLinks(JSON.parse(response.text));
  return first ? `${first.link!.replace(/\/+$/, '')}/` : undefined;
}

/** HttpUtility.UrlEncode: what .NET leaves as is, `+` for a space, lower-case escapes. */
const urlEncode = (value: string): string =>
  Array.from(Buffer.from(value, 'utf8'))
    .map((byte) => {
      const c = String.fromCharCode(byte);
      if (/[A-Za-z0-9\-_.!*()]/.test(c)) return c;
      if (c === ' ') return '+';
      return `%${byte.toString(16).padStart(2, '0')}`;
    })
    .join('');

/** DateTimeOffset.ToString("o") of a UTC instant: seven fraction digits and `+00:00`. */
const roundTrip = (instant: string): string =>
  `${new Date(instant).toISOString().slice(0, 19)}.${String(new Date(instant).getUTCMilliseconds()).padStart(3, '0')}0000+00:00`;

export interface QueryParameters {
  MATCH_anyEPC?: string[];
  MATCH_anyEPCClass?: string[];
  LE_eventTime?: string;
}

/** EPCISQueryParameters(params EPC[]): classes to MATCH_anyEPCClass, everything else to MATCH_anyEPC. */
export function parametersOf(epcs: string[]): QueryParameters {
  const out: QueryParameters = {};
  for (const epc of epcs)
    (epcOf(epc).type === 'Class' ? (out.MATCH_anyEPCClass ??= []) : (out.MATCH_anyEPC ??= [])).push(epc);
  return out;
}

/** ToQueryParameters, in EPCISQuery's member order; list values joined by an encoded `|`. */
function queryString(parameters: QueryParameters): string {
  const pipe = urlEncode('|');
  const out: string[] = [];
  if (parameters.LE_eventTime) out.push(`LE_eventTime=${urlEncode(roundTrip(parameters.LE_eventTime))}`);
  if (parameters.MATCH_anyEPC?.length) out.push(`MATCH_anyEPC=${parameters.MATCH_anyEPC.map(urlEncode).join(pipe)}`);
  if (parameters.MATCH_anyEPCClass?.length)
    out.push(`MATCH_anyEPCClass=${parameters.MATCH_anyEPCClass.map(urlEncode).join(pipe)}`);
  return `?${out.join('&')}`;
}

/** QueryEvents' headers for each version and format. */
function headersOf(format: EpcisFormat): Record<string, string> {
  const version = format === 'XML 1.2' ? '1.2' : '2.0';
  return {
    Accept: format === 'JSON 2.0' ? 'application/json' : 'application/xml',
    'GS1-EPCIS-Version': version,
    'GS1-EPCIS-Min': version,
    'GS1-EPCIS-Max': version,
    'GS1-CBV-Version': version,
    'GS1-CBV-XML-Format': 'ALWAYS_URN',
  };
}

export type ProductType = 'Reference' | 'Parent' | 'Child' | 'Input' | 'Output';

/** What the client's mappers keep of an event that its traceback reads. */
export interface ClientEvent {
  eventID: string;
  type: string;
  action?: string;
  eventTime: string;
  parentID?: string;
  products: { type: ProductType; epc: string }[];
}

const JSON_PRODUCTS: [string, ProductType, boolean][] = [
  ['epcList', 'Reference', false],
  ['quantityList', 'Reference', true],
  ['childEPCs', 'Child', false],
  ['childQuantityList', 'Child', true],
  ['inputEPCList', 'Input', false],
  ['inputQuantityList', 'Input', true],
  ['outputEPCList', 'Output', false],
  ['outputQuantityList', 'Output', true],
];

/** An event's products as the JSON mapper reads them (IEvent.Products). */
export function productsOf(event: Record<string, unknown>): ClientEvent['products'] {
  const products: ClientEvent['products'] = [];
  if (typeof event.parentID === 'string') products.push({ type: 'Parent', epc: event.parentID });
  for (const [list, type, quantities] of JSON_PRODUCTS)
    for (const item of (event[list] as (string | { epcClass: string })[] | undefined) ?? [])
      products.push({ type, epc: quantities ? (item as { epcClass: string }).epcClass : (item as string) });
  return products;
}

function eventsOfJson(text: string): ClientEvent[] {
  const body = JSON.parse(text) as {
    epcisBody: { queryResults: { resultsBody: { eventList: Record<string, unknown>[] } } };
  };
  return body.epcisBody.queryResults.resultsBody.eventList.map((event) => {
    const products = productsOf(event);
    return {
      eventID: String(event.eventID),
      type: String(event.type),
      ...(typeof event.action === 'string' ? { action: event.action } : {}),
      eventTime: String(event.eventTime),
      ...(typeof event.parentID === 'string' ? { parentID: event.parentID } : {}),
      products,
    };
  });
}

const EVENT_TYPES = new Set([
  'ObjectEvent',
  'AggregationEvent',
  'TransformationEvent',
  'TransactionEvent',
  'AssociationEvent',
]);

const elements = (parent: XmlElement, localName: string): XmlElement[] =>
  Array.from(parent.getElementsByTagName('*')).filter((e) => e.localName === localName);
const textOf = (element: XmlElement | undefined): string | undefined => element?.textContent?.trim() || undefined;

/** Both XML bindings: 1.2's extension wrappers hold the same elements, found by their local names. */
function eventsOfXml(text: string): ClientEvent[] {
  const root = new DOMParser().parseFromString(text.replace(/^\uFEFF/, ''), 'text/xml').documentElement!;
  const [eventList] = elements(root, 'EventList');
  if (!eventList) throw new Error(`no EventList in ${text.slice(0, 300)}`);
  return Array.from(eventList.getElementsByTagName('*'))
    .filter((e) => EVENT_TYPES.has(e.localName!))
    .map((event) => {
      const products: ClientEvent['products'] = [];
      const parentID = textOf(elements(event, 'parentID')[0]);
      if (parentID) products.push({ type: 'Parent', epc: parentID });
      for (const [list, type, quantities] of JSON_PRODUCTS)
        for (const container of elements(event, list))
          for (const item of elements(container, quantities ? 'epcClass' : 'epc'))
            products.push({ type, epc: textOf(item)! });
      return {
        eventID: textOf(elements(event, 'eventID')[0]) ?? '',
        type: event.localName!,
        ...(textOf(elements(event, 'action')[0]) ? { action: textOf(elements(event, 'action')[0]) } : {}),
        eventTime: textOf(elements(event, 'eventTime')[0])!,
        ...(parentID ? { parentID } : {}),
        products,
      };
    });
}

export interface QueryResults {
  events: ClientEvent[];
  errors: string[];
  /** Each request's path and answer status, as the client's stack trace keeps them. */
  requests: { url: string; status: number }[];
}

/** QueryEvents: `<interface>/events<query>` with the version's headers, the answer read by the format's mapper. */
export async function queryEvents(
  apiKey: string,
  epcisUrl: string,
  parameters: QueryParameters,
  format: EpcisFormat,
): Promise<QueryResults> {
  const url = `${epcisUrl.replace(/\/+$/, '')}/events${queryString(parameters)}`;
  const response = await request('GET', pathOf(url), { headers: { 'X-API-Key': apiKey, ...headersOf(format) } });
  const requests = [{ url, status: response.status }];
  if (response.status < 200 || response.status > 299)
    return { events: [], errors: [`${response.status} - ${response.text}`], requests };
  return {
    events: format === 'JSON 2.0' ? eventsOfJson(response.text) : eventsOfXml(response.text),
    errors: [],
    requests,
  };
}

/** EPCISBaseDocument.Merge: events not yet held, by eventID. */
function merge(into: QueryResults, from: QueryResults): void {
  into.errors.push(...from.errors);
  into.requests.push(...from.requests);
  for (const event of from.events) if (!into.events.some((e) => e.eventID === event.eventID)) into.events.push(event);
}

/** EPCISTraceabilityResolver.Traceback: inputs and children, up to 100 levels, then the pallets they were aggregated into. */
export async function traceback(
  apiKey: string,
  epcisUrl: string,
  epc: string,
  format: EpcisFormat,
): Promise<QueryResults> {
  const queried = new Set([epc]);
  const results = await queryEvents(apiKey, epcisUrl, parametersOf([epc]), format);
  if (results.errors.length) return results;
  const unqueried = (events: ClientEvent[]) => {
    const out: string[] = [];
    for (const product of events.flatMap((e) => e.products))
      if ((product.type === 'Child' || product.type === 'Input') && !queried.has(product.epc)) {
        out.push(product.epc);
        queried.add(product.epc);
      }
    return out;
  };
  let toQuery = unqueried(results.events);
  for (let stack = 0; stack < 100 && toQuery.length; stack++) {
    const more = await queryEvents(apiKey, epcisUrl, parametersOf(toQuery), format);
    merge(results, more);
    toQuery = unqueried(more.events);
  }
  for (let stack = 0; stack < 100; stack++) {
    const aggregations = results.events.filter(
      (e) => e.type === 'AggregationEvent' && e.action === 'ADD' && e.parentID && !queried.has(e.parentID),
    );
    if (!aggregations.length) break;
    for (const aggregation of aggregations) {
      const children = aggregation.products.filter((p) => p.type === 'Child').map((p) => p.epc);
      const at = (e: ClientEvent) => new Date(e.eventTime).getTime();
      const next = results.events
        .filter((e) => at(e) > at(aggregation) && e.products.some((p) => children.includes(p.epc)))
        .sort((a, b) => at(a) - at(b))[0];
      const until = next ?? results.events.reduce((latest, e) => (at(e) > at(latest) ? e : latest));
      const parameters = { ...parametersOf([aggregation.parentID!]), LE_eventTime: until.eventTime };
      merge(results, await queryEvents(apiKey, epcisUrl, parameters, format));
      queried.add(aggregation.parentID!);
    }
  }
  return results;
}
