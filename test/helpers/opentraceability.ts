import { DOMParser, type Element as XmlElement } from '@xmldom/xmldom';
import { checkDigit } from '../../domain/epcis/identifiers';
import { apiUrl, getWithExactHeaders, request } from './http';

/**
 * GDST's reference client (OpenTraceability, github.com/ift-gftc/opentraceability: EPC.ToDigitalLinkURI,
 * GTIN/PGLN.ToDigitalLinkURL, EPCISTraceabilityResolver, EPCISQueryParameters.ToQueryParameters,
 * DigitalLink, MasterDataResolver, GDSTMasterDataResolver, GS1VocabJsonMapper) as it talks to a service,
 * rewritten here because the library is on neither npm nor Maven Central: the resolver paths it builds from
 * an EPC, the headers it sends, the link objects its JSON mapper accepts (Jackson refuses any other member),
 * the query string it writes, its traceback and its resolution of the events' master data.
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

/** GLN.ToDigitalLinkURL: an SGLN as `414/<GLN-13>` (its extension left out), anything else `414/<as it is>`. */
export function locationPath(gln: string): string {
  if (gln.startsWith('https://id.gs1.org')) return gln.slice('https://id.gs1.org'.length);
  if (gln.includes(':id:sgln:')) {
    const [companyPrefix, locationRef] = gln.split(':').pop()!.split('.');
    const body = companyPrefix + locationRef;
    return `414/${body}${checkDigit(body)}`;
  }
  return `414/${gln}`;
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
    // The GTIN is the Digital Link's 01 as it is (new GTIN(applicationIdentifiers["01"])).
    if (keys.has('00')) return { type: 'SSCC' };
    if (keys.has('01') && keys.has('10')) return { type: 'Class', gtin: keys.get('01'), lotOrSerial: keys.get('10') };
    if (keys.has('01') && keys.has('21'))
      return { type: 'Instance', gtin: keys.get('01'), lotOrSerial: keys.get('21') };
  }
  return { type: 'URI' };
}

/** EPC.ToDigitalLinkURI: the resolver path of an EPC. */
export function digitalLinkPath(epc: string): string {
  if (epc.startsWith('https://id.gs1.org')) return epc.slice('https://id.gs1.org'.length);
  const parsed = epcOf(epc);
  if (parsed.type === 'Class') return `${gtinPath(parsed.gtin!)}/10/${parsed.lotOrSerial}`;
  if (parsed.type === 'Instance') return `${gtinPath(parsed.gtin!)}/21/${parsed.lotOrSerial}`;
  // EPC.ToString() lower-cases the whole EPC.
  if (parsed.type === 'SSCC') return `00/${epc.toLowerCase()}`;
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
  /** The business location (IEvent.Location.GLN). */
  location?: string;
  /** The owning parties of its source and destination lists (EventSourceType.Owner). */
  owners: string[];
  /** GDST's information provider and product owner (IGDSTEvent), when the event has them. */
  gdstParties: string[];
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

/** CBV's owning party, as a bare word or its URN (EventSourceType.Owner). */
const isOwner = (type: string | undefined): boolean =>
  type === 'owning_party' || type === 'urn:epcglobal:cbv:sdt:owning_party';
/** The local names of GDST's information provider and product owner, whatever their prefix. */
const GDST_PARTIES = ['informationProvider', 'productOwner'];
const localNameOf = (name: string): string => name.slice(name.lastIndexOf(':') + 1);

function eventsOfJson(text: string): ClientEvent[] {
  const body = JSON.parse(text) as {
    epcisBody: { queryResults: { resultsBody: { eventList: Record<string, unknown>[] } } };
  };
  return body.epcisBody.queryResults.resultsBody.eventList.map((event) => {
    const products = productsOf(event);
    const sources = (event.sourceList as { type?: string; source: string }[] | undefined) ?? [];
    const destinations = (event.destinationList as { type?: string; destination: string }[] | undefined) ?? [];
    const location = (event.bizLocation as { id?: string } | undefined)?.id;
    return {
      eventID: String(event.eventID),
      type: String(event.type),
      ...(typeof event.action === 'string' ? { action: event.action } : {}),
      eventTime: String(event.eventTime),
      ...(typeof event.parentID === 'string' ? { parentID: event.parentID } : {}),
      products,
      ...(location ? { location } : {}),
      owners: [
        ...sources.filter((s) => isOwner(s.type)).map((s) => s.source),
        ...destinations.filter((d) => isOwner(d.type)).map((d) => d.destination),
      ],
      gdstParties: Object.entries(event)
        .filter(([name, value]) => GDST_PARTIES.includes(localNameOf(name)) && typeof value === 'string')
        .map(([, value]) => value as string),
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
      const [bizLocation] = elements(event, 'bizLocation');
      const location = bizLocation && textOf(elements(bizLocation, 'id')[0]);
      const owned = (list: string, item: string) =>
        elements(event, list)
          .flatMap((container) => elements(container, item))
          .filter((e) => isOwner(e.getAttribute('type') ?? undefined))
          .map((e) => textOf(e)!);
      return {
        eventID: textOf(elements(event, 'eventID')[0]) ?? '',
        type: event.localName!,
        ...(textOf(elements(event, 'action')[0]) ? { action: textOf(elements(event, 'action')[0]) } : {}),
        eventTime: textOf(elements(event, 'eventTime')[0])!,
        ...(parentID ? { parentID } : {}),
        products,
        ...(location ? { location } : {}),
        owners: [...owned('sourceList', 'source'), ...owned('destinationList', 'destination')],
        gdstParties: GDST_PARTIES.flatMap((name) => elements(event, name).map((e) => textOf(e)!)),
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

/** LanguageString: what Newtonsoft's `List<LanguageString>` takes, an array of `{ "@language", "@value" }`. */
export interface LanguageString {
  language: string;
  value: string;
}

export interface ClientAddress {
  streetAddress?: LanguageString[];
  addressLocality?: LanguageString[];
  addressRegion?: LanguageString[];
  countryCode?: string;
}

/** Tradeitem: its ID is its GTIN. */
export interface TradeItem {
  id: string;
  productName?: LanguageString[];
  speciesNames?: string[];
}

/** GDSTLocation (GDST's Setup registers it for Location): its ID is its GLN. */
export interface ClientLocation {
  id: string;
  name?: LanguageString[];
  address?: ClientAddress;
  vesselName?: string;
  vesselID?: string;
  vesselFlagState?: string;
  imoNumber?: string;
  vesselPublicRegistry?: string;
  satelliteTracking?: string;
  unloadingPort?: string;
}

/** TradingParty: its ID is its PGLN. */
export interface TradingParty {
  id: string;
  organizationName?: LanguageString[];
  address?: ClientAddress;
}

type VocabularyType = 'Tradeitem' | 'Location' | 'TradingParty';

/** The GTIN, GLN and PGLN constructors: what they refuse throws, as theirs do (DetectGTINIssue and the like). */
function identifierOf(type: VocabularyType, value: string): string {
  const gs1 = (digits: number) =>
    value.length === digits && /^\d+$/.test(value) && checkDigit(value.slice(0, -1)) === value.slice(-1);
  const valid = {
    Tradeitem:
      gs1(14) ||
      (value.startsWith('urn:') && value.includes(':product:class:')) ||
      /^urn:.*:idpat:sgtin:\d+\.\d+$/.test(value) ||
      /^https:\/\/id\.gs1\.org.*\/01\//.test(value),
    Location:
      gs1(13) ||
      (value.startsWith('urn:') && /:location:(extension:)?loc:/.test(value)) ||
      /:id:sgln:\d+\.\d+/.test(value) ||
      /^https:\/\/id\.gs1\.org.*\/414\//.test(value),
    TradingParty:
      gs1(13) ||
      (value.startsWith('urn:') && value.includes(':party:')) ||
      /^urn:.*:id:(pgln|sgln):\d+\.\d+/.test(value) ||
      /^https:\/\/id\.gs1\.org.*\/417\//.test(value),
  }[type];
  if (!valid || /\s/.test(value)) throw new Error(`The ${type === 'Tradeitem' ? 'GTIN' : 'GLN'} ${value} is invalid.`);
  // ToString lower-cases every identifier.
  return value.toLowerCase();
}

/** `List<LanguageString>` from JSON: anything but an array of objects fails Newtonsoft's deserialisation. */
function languageStrings(json: unknown, member: string): LanguageString[] {
  if (!Array.isArray(json) || json.some((item) => !item || typeof item !== 'object' || Array.isArray(item)))
    throw new Error(`${member}: cannot deserialize ${JSON.stringify(json)} into List<LanguageString>`);
  const part = (item: Record<string, unknown>, name: '@language' | '@value'): string => {
    const value = item[name];
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string') throw new Error(`${member}: ${name} is not a string: ${JSON.stringify(value)}`);
    return value;
  };
  return (json as Record<string, unknown>[]).map((item) => ({
    language: part(item, '@language'),
    value: part(item, '@value'),
  }));
}

/** A string property: the token's text (an object's JSON text, as JToken.ToString gives it). */
const text = (json: unknown): string | undefined => {
  const value = typeof json === 'string' ? json : JSON.stringify(json);
  return value.trim() ? value : undefined;
};

/** Countries.Parse: an ISO alpha-2 or alpha-3 code or number; anything else is no country (null, not an error). */
const country = (json: unknown): string | undefined =>
  typeof json === 'string' && /^([A-Za-z]{2,3}|\d{1,3})$/.test(json) ? json.toUpperCase() : undefined;

function addressOf(json: unknown): ClientAddress {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return {};
  const address: ClientAddress = {};
  for (const [name, value] of Object.entries(json as Record<string, unknown>)) {
    if (name === 'streetAddress' || name === 'addressLocality' || name === 'addressRegion')
      address[name] = languageStrings(value, `address.${name}`);
    else if (name === 'countryCode') address.countryCode = country(value);
  }
  return address;
}

const LOCATION_STRINGS: Record<string, keyof ClientLocation> = {
  'cbvmda:vesselName': 'vesselName',
  'cbvmda:vesselID': 'vesselID',
  'gdst:imoNumber': 'imoNumber',
  'gdst:vesselPublicRegistry': 'vesselPublicRegistry',
  'gdst:satelliteTracking': 'satelliteTracking',
  'cbvmda:unloadingPort': 'unloadingPort',
};

/**
 * GS1VocabJsonMapper.Map(type, json) as OpenTraceabilityJsonLDMapper.FromJson reads it: `@context` must be
 * there; members are matched by their exact JSON names (`gtin`, `productName`, `globalLocationNumber`,
 * `name`, `organizationName`, `cbvmda:vesselName`…), any other is ignored (the master data types keep no
 * extension KDEs); a value it cannot convert throws. The item's ID must come back, else the resolver throws.
 */
export function masterDataOf(type: 'Tradeitem', json: unknown): TradeItem;
export function masterDataOf(type: 'Location', json: unknown): ClientLocation;
export function masterDataOf(type: 'TradingParty', json: unknown): TradingParty;
export function masterDataOf(type: VocabularyType, json: unknown): TradeItem | ClientLocation | TradingParty {
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error(`not a JSON object: ${text(json)}`);
  const members = json as Record<string, unknown>;
  if (members['@context'] === undefined || members['@context'] === null)
    throw new Error('@context is null on the JSON-LD when deserializing GS1 Web Vocab.');
  const idMember = type === 'Tradeitem' ? 'gtin' : 'globalLocationNumber';
  const id = members[idMember] === undefined ? undefined : identifierOf(type, text(members[idMember]) ?? '');
  if (!id) throw new Error(`the ${type} returned had an empty or invalid Identifier: ${JSON.stringify(json)}`);
  if (type === 'Tradeitem') {
    const species = members['cbvmda:speciesForFisheryStatisticsPurposesName'];
    return {
      id,
      ...(members.productName !== undefined
        ? { productName: languageStrings(members.productName, 'productName') }
        : {}),
      ...(Array.isArray(species) ? { speciesNames: species.map(String) } : {}),
    };
  }
  const address = members.address !== undefined ? { address: addressOf(members.address) } : {};
  if (type === 'TradingParty')
    return {
      id,
      ...(members.organizationName !== undefined
        ? { organizationName: languageStrings(members.organizationName, 'organizationName') }
        : {}),
      ...address,
    };
  const location: ClientLocation = {
    id,
    ...(members.name !== undefined ? { name: languageStrings(members.name, 'name') } : {}),
    ...address,
  };
  for (const [member, property] of Object.entries(LOCATION_STRINGS)) {
    const value = members[member] === undefined ? undefined : text(members[member]);
    if (value !== undefined) (location[property] as string) = value;
  }
  if (members['cbvmda:vesselFlagState'] !== undefined)
    location.vesselFlagState = country(members['cbvmda:vesselFlagState']);
  return location;
}

/** What the client sends to the resolver and the master data links: its HttpClient's default headers, no Accept. */
const masterDataHeaders = (apiKey: string) => ({ 'X-API-Key': apiKey, 'User-Agent': 'DiagnosticsTool/1.0' });

export interface MasterDataResults {
  tradeItems: TradeItem[];
  locations: ClientLocation[];
  parties: TradingParty[];
  /** What the client caught and logged: a links answer or master data it could not map. */
  errors: string[];
  requests: { url: string; status: number }[];
}

/**
 * ResolveMasterDataItem: `<resolver>/<path>?linkType=gs1:masterData`, its 2xx answer read as DigitalLink[];
 * each link's `link` fetched in turn until one answers GS1 Web Vocabulary JSON-LD the mapper reads.
 */
async function resolveMasterDataItem(
  apiKey: string,
  type: VocabularyType,
  relativeUrl: string,
  results: MasterDataResults,
): Promise<TradeItem | ClientLocation | TradingParty | undefined> {
  const path = `/${relativeUrl.replace(/^\/+/, '')}?linkType=gs1:masterData`;
  const answer = await getWithExactHeaders(path, masterDataHeaders(apiKey));
  results.requests.push({ url: `${apiUrl()}${path}`, status: answer.status });
  if (answer.status < 200 || answer.status > 299) return undefined;
  let links: DigitalLink[];
  try {
    links = parseDigitalLinks(JSON.parse(answer.text));
  } catch (error) {
    results.errors.push(`${path}: ${(error as Error).message}`);
    return undefined;
  }
  for (const link of links) {
    try {
      const target = await getWithExactHeaders(pathOf(link.link!), masterDataHeaders(apiKey));
      results.requests.push({ url: link.link!, status: target.status });
      if (target.status < 200 || target.status > 299) continue;
      return masterDataOf(type as 'Tradeitem', JSON.parse(target.text));
    } catch (error) {
      results.errors.push(`${link.link}: ${(error as Error).message}`);
    }
  }
  return undefined;
}

/**
 * MasterDataResolver.ResolveMasterData, and with `gdst` GDSTMasterDataResolver's: for each event, the GTIN
 * of each product that is a class or an instance, the business location's GLN, the owning parties of its
 * source and destination lists (and GDST's information provider and product owner), each resolved once
 * by the ID it comes back with.
 */
export async function resolveMasterData(
  apiKey: string,
  events: ClientEvent[],
  options: { gdst: boolean },
): Promise<MasterDataResults> {
  const results: MasterDataResults = { tradeItems: [], locations: [], parties: [], errors: [], requests: [] };
  const resolve = async <T extends { id: string }>(
    held: T[],
    type: VocabularyType,
    identifier: string,
    relativeUrl: string,
  ) => {
    if (held.some((item) => item.id === identifier.toLowerCase())) return;
    const item = await resolveMasterDataItem(apiKey, type, relativeUrl, results);
    if (item) held.push(item as T);
  };
  for (const event of events) {
    for (const product of event.products) {
      const epc = epcOf(product.epc);
      if ((epc.type === 'Class' || epc.type === 'Instance') && epc.gtin)
        await resolve(results.tradeItems, 'Tradeitem', epc.gtin, gtinPath(epc.gtin));
    }
    if (event.location) await resolve(results.locations, 'Location', event.location, locationPath(event.location));
    for (const owner of event.owners) await resolve(results.parties, 'TradingParty', owner, partyPath(owner));
  }
  if (options.gdst)
    for (const event of events)
      for (const party of event.gdstParties) await resolve(results.parties, 'TradingParty', party, partyPath(party));
  return results;
}
