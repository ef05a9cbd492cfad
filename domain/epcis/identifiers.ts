/**
 * GS1 identifiers as EPCIS events carry them: EPC URNs (`urn:epc:id:sgtin:...`, `urn:epc:class:lgtin:...`)
 * and GS1 Digital Link URIs (`https://id.gs1.org/01/...`). What the service keys master data by is the
 * GTIN (products) and the GLN (locations); everything else (SSCCs, GRAIs, private URIs) is kept as sent.
 * Pure.
 */

/** What GS1-EPC-Format asks identifiers to be answered as: Digital Links, EPC URNs, or as captured. */
export const EPC_FORMATS = ['No_Preference', 'Always_GS1_Digital_Link', 'Always_EPC_URN', 'Never_Translates'] as const;
export type EpcFormat = (typeof EPC_FORMATS)[number];

/** A trade item instance or class, by GTIN-14 with its serial or lot when the identifier has one. */
export interface TradeItem {
  readonly gtin: string;
  readonly serial?: string;
  readonly lot?: string;
}

export interface PhysicalLocation {
  readonly gln: string;
  /** SGLN extension; absent for the GLN itself (extension `0` in an SGLN URN). */
  readonly extension?: string;
}

/**
 * A pure parse remembered by its input: a capture names the same read point, location and classes in
 * hundreds of events, and each is parsed several times (master data, translation, query index). The
 * cache is bounded and its values frozen, as callers share them.
 */
export function memoised<T>(parse: (identifier: string) => T): (identifier: string) => T {
  const cache = new Map<string, T>();
  return (identifier) => {
    const hit = cache.get(identifier);
    if (hit !== undefined || cache.has(identifier)) return hit as T;
    const value = parse(identifier);
    if (cache.size >= MEMO_SIZE) cache.clear();
    cache.set(identifier, value && typeof value === 'object' ? Object.freeze(value) : value);
    return value;
  };
}
const MEMO_SIZE = 10_000;

/** GS1 modulo-10 check digit of the digits before it. */
export function checkDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const weight = (digits.length - i) % 2 === 1 ? 3 : 1;
    sum += Number(digits[i]) * weight;
  }
  return String((10 - (sum % 10)) % 10);
}

const hasValidCheckDigit = (digits: string): boolean => checkDigit(digits.slice(0, -1)) === digits.slice(-1);

const decode = (value: string): string | undefined => {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
};

/** `CP.IR` of an SGTIN/LGTIN URN (company prefix and indicator + item reference, 13 digits) as GTIN-14. */
function gtinOfUrnParts(companyPrefix: string, itemRef: string): string | undefined {
  if (!/^\d{6,12}$/.test(companyPrefix) || !/^\d+$/.test(itemRef) || companyPrefix.length + itemRef.length !== 13)
    return undefined;
  const body = itemRef[0] + companyPrefix + itemRef.slice(1);
  return body + checkDigit(body);
}

/** An SGTIN (with its serial), an LGTIN (with its lot) or an SGTIN pattern of every serial (`….*`). */
const URN_TRADE_ITEM = /^urn:epc:(id:sgtin|class:lgtin|idpat:sgtin):(\d+)\.(\d+)\.(.+)$/;
const URN_SGLN = /^urn:epc:id:sgln:(\d+)\.(\d*)\.(.+)$/;
const URN_SSCC = /^urn:epc:id:sscc:(\d+)\.(\d+)$/;

/**
 * The GS1 primary keys of a Digital Link URI's path, whatever its host (a brand's own resolver domain
 * is as valid as id.gs1.org): `{ '01': gtin, '21': serial, ... }`.
 */
function digitalLinkKeys(uri: string): Map<string, string> | undefined {
  if (!/^https?:\/\//i.test(uri)) return undefined;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  const segments = url.pathname.split('/').filter(Boolean);
  const start = segments.findIndex((s) => s === '01' || s === '414' || s === '00');
  if (start < 0 || (segments.length - start) % 2 !== 0) return undefined;
  const keys = new Map<string, string>();
  for (let i = start; i < segments.length; i += 2) {
    const value = decode(segments[i + 1]);
    if (value === undefined) return undefined;
    keys.set(segments[i], value);
  }
  return keys;
}

/** GTIN-8/12/13 in a Digital Link are padded to 14 digits, as GS1 keys them. */
const gtin14 = (value: string): string | undefined =>
  /^\d{8}$|^\d{12,14}$/.test(value) && hasValidCheckDigit(value) ? value.padStart(14, '0') : undefined;

/** The trade item an EPC (epcList, parentID, childEPCs) or an EPC class (quantityList) names, if any. */
export const tradeItemOf = memoised((identifier: string): TradeItem | undefined => {
  const urn = URN_TRADE_ITEM.exec(identifier);
  if (urn) {
    const [, scheme, companyPrefix, itemRef, rest] = urn;
    const gtin = gtinOfUrnParts(companyPrefix, itemRef);
    if (scheme === 'idpat:sgtin') return gtin && rest === '*' ? { gtin } : undefined;
    const value = decode(rest);
    return gtin && value ? { gtin, ...(scheme === 'id:sgtin' ? { serial: value } : { lot: value }) } : undefined;
  }
  const keys = digitalLinkKeys(identifier);
  const gtin = keys?.get('01') && gtin14(keys.get('01')!);
  if (!keys || !gtin) return undefined;
  return {
    gtin,
    ...(keys.has('21') ? { serial: keys.get('21')! } : {}),
    ...(keys.has('10') ? { lot: keys.get('10')! } : {}),
  };
});

/** The GLN (and extension) an SGLN URN or a Digital Link `414` URI names, if any. */
export const physicalLocationOf = memoised((identifier: string): PhysicalLocation | undefined => {
  const match = URN_SGLN.exec(identifier);
  if (match) {
    const [, companyPrefix, locationRef, extension] = match;
    if (!/^\d{6,12}$/.test(companyPrefix) || companyPrefix.length + locationRef.length !== 12) return undefined;
    const body = companyPrefix + locationRef;
    const ext = decode(extension);
    if (ext === undefined) return undefined;
    return { gln: body + checkDigit(body), ...(ext !== '0' ? { extension: ext } : {}) };
  }
  const keys = digitalLinkKeys(identifier);
  const gln = keys?.get('414');
  if (!keys || !gln || !/^\d{13}$/.test(gln) || !hasValidCheckDigit(gln)) return undefined;
  return { gln, ...(keys.has('254') ? { extension: keys.get('254')! } : {}) };
});

const DIGITAL_LINK_HOST = 'https://id.gs1.org';
const encode = (value: string): string => encodeURIComponent(value);

/** A GTIN (with serial or lot) as a GS1 Digital Link URI on id.gs1.org. */
export function tradeItemDigitalLink(item: TradeItem): string {
  const base = `${DIGITAL_LINK_HOST}/01/${item.gtin}`;
  if (item.serial !== undefined) return `${base}/21/${encode(item.serial)}`;
  if (item.lot !== undefined) return `${base}/10/${encode(item.lot)}`;
  return base;
}

export function locationDigitalLink(location: PhysicalLocation): string {
  return `${DIGITAL_LINK_HOST}/414/${location.gln}${location.extension !== undefined ? `/254/${encode(location.extension)}` : ''}`;
}

/**
 * An EPC URN as its Digital Link equivalent (GS1-EPC-Format: Always_GS1_Digital_Link); anything else
 * unchanged. The reverse needs the GS1 company prefix length, which a Digital Link does not carry, so a
 * Digital Link sent as such is always answered as sent.
 */
export function toDigitalLink(identifier: string): string {
  if (!identifier.startsWith('urn:epc:')) return identifier;
  const sscc = URN_SSCC.exec(identifier);
  if (sscc) {
    const [, companyPrefix, serialRef] = sscc;
    if (companyPrefix.length + serialRef.length !== 17) return identifier;
    const body = serialRef[0] + companyPrefix + serialRef.slice(1);
    return `${DIGITAL_LINK_HOST}/00/${body}${checkDigit(body)}`;
  }
  if (URN_SGLN.test(identifier)) {
    const location = physicalLocationOf(identifier);
    return location ? locationDigitalLink(location) : identifier;
  }
  const item = tradeItemOf(identifier);
  return item ? tradeItemDigitalLink(item) : identifier;
}

/**
 * One spelling per identifier, for matching queries against events whatever form either used: a GS1
 * key (URN or Digital Link on any host) as its Digital Link on id.gs1.org, anything else as it is.
 */
export const canonicalIdentifier = memoised((identifier: string): string => {
  const item = tradeItemOf(identifier);
  if (item) return tradeItemDigitalLink(item);
  const location = physicalLocationOf(identifier);
  if (location) return locationDigitalLink(location);
  const keys = digitalLinkKeys(identifier);
  if (keys?.has('00') && keys.size === 1) return `${DIGITAL_LINK_HOST}/00/${keys.get('00')}`;
  return toDigitalLink(identifier);
});

const URN_PGLN = /^urn:epc:id:pgln:(\d{6,12})\.(\d*)$/;

/** The PGLN a party's PGLN URN or `417` Digital Link names, if any. */
function pglnOf(identifier: string): string | undefined {
  const urn = URN_PGLN.exec(identifier);
  if (urn) {
    const body = urn[1] + urn[2];
    return body.length === 12 ? body + checkDigit(body) : undefined;
  }
  // On any host, perhaps with a path before GS1's.
  const link = /^https?:\/\/[^/?#]+(?:\/[^?#]*)?\/417\/(\d{13})$/i.exec(identifier);
  return link && hasValidCheckDigit(link[1]) ? link[1] : undefined;
}

/**
 * The path a GLN location's or a party PGLN's Digital Link ends with on any host (`/414/<gln>[/254/<extension>]`,
 * `/417/<pgln>`), undefined for any other identifier.
 */
export function glnPathOf(identifier: string): string | undefined {
  const pgln = pglnOf(identifier);
  if (pgln) return `/417/${pgln}`;
  const location = physicalLocationOf(identifier);
  return location && locationDigitalLink(location).slice(DIGITAL_LINK_HOST.length);
}

/**
 * Every spelling an event may give the GLN location or party PGLN `identifier` names: as given, its
 * Digital Link on id.gs1.org, and its EPC URN for each company prefix length it could have (a Digital
 * Link does not say). Sources and destinations are kept as sent, so a query names them in each. Any other
 * identifier: as given and canonical.
 */
export function spellingsOf(identifier: string): string[] {
  const urns = (scheme: string, key: string, tail: string) =>
    Array.from({ length: 7 }, (_, i) => `urn:epc:id:${scheme}:${key.slice(0, 6 + i)}.${key.slice(6 + i, 12)}${tail}`);
  const pgln = pglnOf(identifier);
  const location = pgln ? undefined : physicalLocationOf(identifier);
  const spellings = pgln
    ? [`${DIGITAL_LINK_HOST}/417/${pgln}`, ...urns('pgln', pgln, '')]
    : location
      ? [locationDigitalLink(location), ...urns('sgln', location.gln, `.${encode(location.extension ?? '0')}`)]
      : [canonicalIdentifier(identifier)];
  return [...new Set([identifier, ...spellings])];
}

type Json = { [key: string]: unknown };

const ID_LISTS = ['epcList', 'childEPCs', 'inputEPCList', 'outputEPCList'] as const;
const QUANTITY_LISTS = ['quantityList', 'childQuantityList', 'inputQuantityList', 'outputQuantityList'] as const;

/** An event with every EPC, class, parentID, read point and business location passed through `convert`. */
function withIdentifiers<E extends Json>(event: E, convert: (identifier: string) => string): E {
  const out: Json = { ...event };
  for (const key of ID_LISTS) if (Array.isArray(out[key])) out[key] = (out[key] as string[]).map(convert);
  for (const key of QUANTITY_LISTS) {
    if (Array.isArray(out[key]))
      out[key] = (out[key] as Json[]).map((q) => ({ ...q, epcClass: convert(String(q.epcClass)) }));
  }
  if (typeof out.parentID === 'string') out.parentID = convert(out.parentID);
  for (const key of ['readPoint', 'bizLocation']) {
    const where = out[key] as Json | undefined;
    if (where && typeof where.id === 'string') out[key] = { ...where, id: convert(where.id) };
  }
  return out as E;
}

/** An event with every EPC URN (EPCs, classes, parentID, read point, business location) as a Digital Link. */
export const withDigitalLinks = <E extends Json>(event: E): E => withIdentifiers(event, toDigitalLink);

/**
 * Every identifier of an event (the fields GS1-EPC-Format translates), in withIdentifiers' order, read
 * without copying the event: the capture lists every event's company prefixes.
 */
export function identifiersOfEvent(event: Json): string[] {
  const out: string[] = [];
  for (const key of ID_LISTS) if (Array.isArray(event[key])) out.push(...(event[key] as string[]));
  for (const key of QUANTITY_LISTS) {
    if (Array.isArray(event[key])) for (const q of event[key] as Json[]) out.push(String(q.epcClass));
  }
  if (typeof event.parentID === 'string') out.push(event.parentID);
  for (const key of ['readPoint', 'bizLocation']) {
    const where = event[key] as Json | undefined;
    if (where && typeof where.id === 'string') out.push(where.id);
  }
  return out;
}

const URN_COMPANY_PREFIX = /^urn:epc:(?:id|class|idpat):(?:sgtin|lgtin|sgln|sscc):(\d{6,12})\./;

/** The GS1 company prefix an EPC URN spells out (a Digital Link does not say where it ends). */
export const companyPrefixOfUrn = (identifier: string): string | undefined => URN_COMPANY_PREFIX.exec(identifier)?.[1];

/**
 * The company prefixes these events spell out in EPC URNs, sorted: what Always_EPC_URN learns a Digital
 * Link's company prefix from, kept per account as events are stored.
 */
export function urnCompanyPrefixes(events: Json[]): string[] {
  const prefixes = new Set<string>();
  for (const event of events) {
    for (const identifier of identifiersOfEvent(event)) {
      const prefix = companyPrefixOfUrn(identifier);
      if (prefix) prefixes.add(prefix);
    }
  }
  return [...prefixes].sort();
}

/** Where a GS1 key of a Digital Link has its company prefix: after the indicator digit, except a GLN's. */
function keyOfDigitalLink(identifier: string): { key: string; start: number; keys: Map<string, string> } | undefined {
  const keys = digitalLinkKeys(identifier);
  if (!keys) return undefined;
  const gtin = keys.get('01') && gtin14(keys.get('01')!);
  if (gtin) return { key: gtin, start: 1, keys };
  const gln = keys.get('414');
  if (gln && /^\d{13}$/.test(gln)) return { key: gln, start: 0, keys };
  const sscc = keys.get('00');
  if (sscc && /^\d{18}$/.test(sscc)) return { key: sscc, start: 1, keys };
  return undefined;
}

/** The company prefixes a Digital Link's key could have (6 to 12 digits): what to look for in URNs seen elsewhere. */
export function companyPrefixCandidates(identifier: string): string[] {
  const found = keyOfDigitalLink(identifier);
  if (!found) return [];
  return Array.from({ length: 7 }, (_, i) => found.key.slice(found.start, found.start + 6 + i));
}

/**
 * A GS1 Digital Link as its EPC URN, when `prefixes` holds its company prefix (learnt from URNs of the
 * same company); anything else, or a key whose company prefix is not known, unchanged.
 */
export function toEpcUrn(identifier: string, prefixes: ReadonlySet<string>): string {
  const found = keyOfDigitalLink(identifier);
  if (!found) return identifier;
  const { key, start, keys } = found;
  const companyPrefix = companyPrefixCandidates(identifier)
    .reverse()
    .find((candidate) => prefixes.has(candidate));
  if (!companyPrefix) return identifier;
  const rest = key.slice(start + companyPrefix.length, -1);
  if (keys.has('01')) {
    const itemRef = key[0] + rest;
    if (keys.has('21')) return `urn:epc:id:sgtin:${companyPrefix}.${itemRef}.${encode(keys.get('21')!)}`;
    if (keys.has('10')) return `urn:epc:class:lgtin:${companyPrefix}.${itemRef}.${encode(keys.get('10')!)}`;
    return `urn:epc:idpat:sgtin:${companyPrefix}.${itemRef}.*`;
  }
  if (keys.has('414'))
    return `urn:epc:id:sgln:${companyPrefix}.${rest}.${keys.has('254') ? encode(keys.get('254')!) : '0'}`;
  return `urn:epc:id:sscc:${companyPrefix}.${key[0] + rest}`;
}

/** An event with every Digital Link whose company prefix is known as its EPC URN (GS1-EPC-Format: Always_EPC_URN). */
export const withEpcUrns = <E extends Json>(event: E, prefixes: ReadonlySet<string>): E =>
  withIdentifiers(event, (identifier) => toEpcUrn(identifier, prefixes));

/** DIGITAL_LINK_HOST inside a regular expression. */
const HOST_PATTERN = DIGITAL_LINK_HOST.replace(/\./g, '\\.');

/**
 * What an EPC pattern URI (`urn:epc:idpat:…`, EPCIS's MATCH_ patterns) matches, as regular expressions:
 * `canonical` over canonicalIdentifier's spelling of EPCs and classes, `gtin` over a product's GTIN-14
 * (our own events' lines). A Digital Link does not mark where the company prefix ends, so a pattern by
 * company prefix matches every GTIN or SSCC with those digits in that place. Undefined: not a pattern;
 * null: an idpat URN this service cannot read.
 */
export function epcPatternOf(value: string): { canonical: string; gtin?: string } | null | undefined {
  const match = /^urn:epc:idpat:([a-z0-9]+):(.+)$/.exec(value);
  if (!match) return undefined;
  const [, scheme, body] = match;
  const fields = body.split('.');
  const gtinOf = (companyPrefix: string, itemRef: string) =>
    itemRef === '*'
      ? `[0-9]${companyPrefix}[0-9]{${13 - companyPrefix.length}}`
      : gtinOfUrnParts(companyPrefix, itemRef);
  if (scheme === 'sgtin') {
    const [companyPrefix, itemRef, serial] = fields;
    if (fields.length !== 3 || serial !== '*') return null;
    const gtin =
      companyPrefix === '*' && itemRef === '*'
        ? '[0-9]{14}'
        : /^\d{6,12}$/.test(companyPrefix) && (itemRef === '*' || /^\d+$/.test(itemRef))
          ? gtinOf(companyPrefix, itemRef)
          : undefined;
    return gtin ? { canonical: `^${HOST_PATTERN}/01/${gtin}(/|$)`, gtin: `^${gtin}$` } : null;
  }
  if (scheme === 'sscc') {
    const [companyPrefix, serialRef] = fields;
    if (fields.length !== 2 || serialRef !== '*') return null;
    const sscc =
      companyPrefix === '*'
        ? '[0-9]{18}'
        : /^\d{6,12}$/.test(companyPrefix)
          ? `[0-9]${companyPrefix}[0-9]{${17 - companyPrefix.length}}`
          : undefined;
    return sscc ? { canonical: `^${HOST_PATTERN}/00/${sscc}$` } : null;
  }
  // Other schemes (GRAI, GIAI, …) are matched as the URNs they are kept as: a `*` field is any value.
  const escape = (field: string) => field.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  const last = fields.length - 1;
  return {
    canonical: `^urn:epc:id:${scheme}:${fields.map((field, i) => (field === '*' ? (i === last ? '.+' : '[^.]+') : escape(field))).join('\\.')}$`,
  };
}
