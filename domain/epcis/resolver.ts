/**
 * The answers of a GS1 Digital Link resolver (GS1-Conformant Resolver standard) for one identifier:
 * the links it has (`gs1:epcis`: the EPCIS query interface; `gs1:masterData`: the master data), as the
 * JSON array of GS1's resolver data format that GDST's tools read, as an RFC 9264 linkset, and the master
 * data itself in GS1 Web Vocabulary JSON-LD with GDST's vessel attributes, in the terms GDST's reference
 * client (OpenTraceability) maps. Also the resolver paths that client builds for identifiers that are no
 * GS1 key: GDST's own URNs in place of a GTIN, GLN or PGLN, and an SSCC as its EPC URN. Pure.
 */
import type { StoredAddress, StoredVessel } from '../master-data';
import { checkDigit, physicalLocationOf, toDigitalLink, tradeItemOf } from './identifiers';

export const LINK_TYPES = ['gs1:epcis', 'gs1:masterData'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

const GS1_VOC = 'https://gs1.org/voc/';
/** GDST's vocabulary namespace, as GDST 1.2's JSON-LD context names it. */
const GDST_VOC = 'https://traceability-dialogue.org/vocab/';
const ID_GS1 = 'https://id.gs1.org';

/** The primary keys this resolver takes, by GS1 application identifier. */
export type KeyAi = '01' | '00' | '414' | '417';

/**
 * A Digital Link path this service resolves: the primary key, with a GTIN's lot or serial. `id` is the
 * GS1 key's digits (GTIN-14, SSCC, GLN, PGLN) when `gs1`, else the URN as the path gave it (GDST's
 * `urn:gdst:<domain>:product:class:<id>`, `…:location:loc:<id>`, `…:party:<id>`, a logistic unit's URN).
 */
export interface ResolvedKey extends KeyQualifier {
  ai: KeyAi;
  id: string;
  gs1: boolean;
}

/** What qualifies a primary key in the path: a GTIN's lot or serial, a GLN's extension. */
export interface KeyQualifier {
  lot?: string;
  serial?: string;
  /** A GLN's extension (AI 254): one of its sub-locations. */
  extension?: string;
}

const URN = /^urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}:\S+$/;
/**
 * What OpenTraceability resolves as an SSCC beside a well-formed one: an SSCC URN whose digits do not add
 * up to 17 (GDST's own samples have them), `urn:sscc:`, `…:lpn:obj:…` and BIC containers, kept as they are.
 */
const LOGISTIC_UNIT_URN = /^urn:epc:id:sscc:\S+$|^urn:sscc:\S+$|^urn:\S+:lpn:obj:\S+$|^urn:epc:id:bic:\S+$/;
const PRODUCT_CLASS = ':product:class:';
const BIC = 'urn:epc:id:bic:';

const gs1Key = (value: string, lengths: number[]): boolean =>
  /^\d+$/.test(value) && lengths.includes(value.length) && checkDigit(value.slice(0, -1)) === value.slice(-1);

/** A key of the resolver's path, or the 400's text naming what it takes. */
export function resolverKeyOf(
  ai: KeyAi,
  segment: string,
  qualifier: KeyQualifier = {},
): { key: ResolvedKey } | { problem: string } {
  // A URN's scheme is any letter case (RFC 8141); events spell it `urn:`.
  const value = /^urn:/i.test(segment) ? `urn:${segment.slice('urn:'.length)}` : segment;
  const shown = value.slice(0, 100);
  const key = (id: string, gs1: boolean) => ({ key: { ai, id, gs1, ...qualifier } });
  switch (ai) {
    case '01': {
      if (gs1Key(value, [8, 12, 13, 14])) return key(value.padStart(14, '0'), true);
      // OpenTraceability's Java client writes a GTIN as its EPC class pattern, without the `.*`.
      const pattern = /^urn:epc:idpat:sgtin:\d+\.\d+$/.test(value) ? tradeItemOf(`${value}.*`) : undefined;
      if (pattern) return key(pattern.gtin, true);
      if (URN.test(value) && value.includes(PRODUCT_CLASS)) return key(value, false);
      return {
        problem: `${shown} is not a GTIN (8, 12, 13 or 14 digits with a valid GS1 check digit) nor a product class URN (urn:gdst:<domain>:product:class:<id>).`,
      };
    }
    case '00': {
      if (gs1Key(value, [18])) return key(value, true);
      const digitalLink = toDigitalLink(value);
      if (digitalLink.startsWith(`${ID_GS1}/00/`)) return key(digitalLink.slice(`${ID_GS1}/00/`.length), true);
      // OpenTraceability writes the whole EPC in lower case; a container's BIC code (ISO 6346) is upper case.
      if (value.toLowerCase().startsWith(BIC)) return key(`${BIC}${value.slice(BIC.length).toUpperCase()}`, false);
      if (LOGISTIC_UNIT_URN.test(value)) return key(value, false);
      return {
        problem: `${shown} is not an SSCC (18 digits with a valid GS1 check digit, or urn:epc:id:sscc:<company prefix>.<serial reference>) nor a logistic unit URN (urn:sscc:…, urn:…:lpn:obj:…).`,
      };
    }
    case '414': {
      if (gs1Key(value, [13])) return key(value, true);
      if (qualifier.extension !== undefined)
        return {
          problem: `${shown} is not a GLN (13 digits with a valid GS1 check digit): only a GLN has extensions.`,
        };
      const location = value.startsWith('urn:epc:id:sgln:') ? physicalLocationOf(value) : undefined;
      if (location && location.extension === undefined) return key(location.gln, true);
      if (URN.test(value)) return key(value, false);
      return {
        problem: `${shown} is not a GLN (13 digits with a valid GS1 check digit) nor a location URN (urn:gdst:<domain>:location:loc:<id>).`,
      };
    }
    case '417': {
      if (gs1Key(value, [13])) return key(value, true);
      const pgln = /^urn:epc:id:pgln:(\d{6,12})\.(\d*)$/.exec(value);
      if (pgln && pgln[1].length + pgln[2].length === 12)
        return key(`${pgln[1]}${pgln[2]}${checkDigit(pgln[1] + pgln[2])}`, true);
      if (URN.test(value)) return key(value, false);
      return {
        problem: `${shown} is not a PGLN (13 digits with a valid GS1 check digit, or urn:epc:id:pgln:…) nor a party URN (urn:gdst:<domain>:party:<id>).`,
      };
    }
  }
}

const KEY_NAMES: Record<KeyAi, string> = { '01': 'GTIN', '00': 'SSCC', '414': 'GLN', '417': 'PGLN' };
const URN_NAMES: Record<KeyAi, string> = {
  '01': 'product class URN',
  '00': 'logistic unit URN',
  '414': 'location URN',
  '417': 'party URN',
};

/** The key as a 404 names it: `GTIN 09506000134352`, `product class URN urn:gdst:…`. */
export const keyName = (key: ResolvedKey): string =>
  `${(key.gs1 ? KEY_NAMES : URN_NAMES)[key.ai]} ${key.id.slice(0, 200)}${key.extension !== undefined ? ` extension ${key.extension.slice(0, 100)}` : ''}`;

/** The identifier's path (`/01/…/10/…`), as on id.gs1.org and on this resolver. */
export function pathOf(key: ResolvedKey): string {
  // A URN's colons stay as they are, as GDST's client writes them.
  const base = `/${key.ai}/${key.gs1 ? key.id : encodeURIComponent(key.id).replace(/%3A/g, ':')}`;
  if (key.lot !== undefined) return `${base}/10/${encodeURIComponent(key.lot)}`;
  if (key.serial !== undefined) return `${base}/21/${encodeURIComponent(key.serial)}`;
  if (key.extension !== undefined) return `${base}/254/${encodeURIComponent(key.extension)}`;
  return base;
}

/**
 * The identifier as events name it: a GS1 key's Digital Link on id.gs1.org; a GDST product class's lot
 * or serial as GDST spells it (`…:product:lot:class:<id>.<lot>`, `…:product:serial:obj:<id>.<serial>`);
 * any other URN as it is.
 */
export function identifierOf(key: ResolvedKey): string {
  if (key.gs1) return `${ID_GS1}${pathOf(key)}`;
  if (key.lot !== undefined) return `${key.id.replace(PRODUCT_CLASS, ':product:lot:class:')}.${key.lot}`;
  if (key.serial !== undefined) return `${key.id.replace(PRODUCT_CLASS, ':product:serial:obj:')}.${key.serial}`;
  return key.id;
}

/**
 * What an EPCIS query matches the identifier's events by (a lot or serial of a product, an SSCC): its
 * identifier, and for a product class URN also the spelling our own events give a lot of a product that
 * has that URN (`<product URN>.lot.<lot>`). Undefined for keys whose events no MATCH_ parameter finds.
 */
export function eventMatchOf(key: ResolvedKey): { kind: 'anyEPC' | 'anyEPCClass'; values: string[] } | undefined {
  // A logistic unit's URN in lower case too: as OpenTraceability writes it, and so its own events may.
  if (key.ai === '00')
    return { kind: 'anyEPC', values: [...new Set([identifierOf(key), ...(key.gs1 ? [] : [key.id.toLowerCase()])])] };
  if (key.ai !== '01' || (key.lot === undefined && key.serial === undefined)) return undefined;
  const kind = key.serial !== undefined ? 'anyEPC' : 'anyEPCClass';
  if (key.gs1) return { kind, values: [identifierOf(key)] };
  const lotOrSerial = (key.lot ?? key.serial)!;
  const encoded = encodeURIComponent(lotOrSerial);
  const qualified = key.lot !== undefined ? { lot: encoded } : { serial: encoded };
  // The path's escapes are decoded (`LOT%2001` reads `LOT 01`); a GDST URN keeps them in its lot or serial.
  const values = new Set([identifierOf(key), identifierOf({ ...key, ...qualified })]);
  values.add(`${key.id}.${key.lot !== undefined ? 'lot' : 'serial'}.${encoded}`);
  return { kind, values: [...values] };
}

/**
 * How events may name a party: a URN as it is; a PGLN by its Digital Link (417, or 414 as a GLN) or its
 * EPC URN (PGLN, or an SGLN without extension, as GDST's documents name owners), for each length its
 * company prefix may have, which the 13 digits do not say.
 */
export function partySpellingsOf(key: ResolvedKey): string[] {
  if (!key.gs1) return [key.id];
  const spellings = [`${ID_GS1}/417/${key.id}`, `${ID_GS1}/414/${key.id}`];
  for (let length = 6; length <= 12; length++) {
    const [companyPrefix, reference] = [key.id.slice(0, length), key.id.slice(length, 12)];
    spellings.push(`urn:epc:id:pgln:${companyPrefix}.${reference}`, `urn:epc:id:sgln:${companyPrefix}.${reference}.0`);
  }
  return spellings;
}

/** The EPCIS query of the identifier's events: by class for a GTIN or lot, by EPC for a serial or SSCC, by location for a GLN. */
function eventsQueryOf(key: ResolvedKey): string | undefined {
  const match = eventMatchOf(key);
  if (match) return `MATCH_${match.kind}=${encodeURIComponent(match.values.join('|'))}`;
  if (key.ai === '01' && key.gs1) return `MATCH_anyEPCClass=${encodeURIComponent(identifierOf(key))}`;
  if (key.ai === '414') return `EQ_bizLocation=${encodeURIComponent(identifierOf(key))}`;
  return undefined;
}

/** The link types the identifier has: a logistic unit has no master data here. */
export const linkTypesOf = (key: ResolvedKey): readonly LinkType[] => (key.ai === '00' ? ['gs1:epcis'] : LINK_TYPES);

/** One link in GS1's resolver data format: exactly these members, which GDST's client maps and no other. */
export interface Link {
  link: string;
  title: string;
  linkType: LinkType;
  ianaLanguage: string;
  /** The territory the link is for; `xx`: any. */
  context: string;
  mimeType: string;
  active: boolean;
  /** Whether the resolver forwards the request's query string to the link: it does not. */
  fwqs: boolean;
  defaultLinkType: boolean;
  defaultIanaLanguage: boolean;
  defaultContext: boolean;
  defaultMimeType: boolean;
  /** The identifier the link is for, as events name it (identifierOf). */
  identifier: string;
  authRequired: boolean;
}

/**
 * The identifier's links of one type (all types when none is asked). The first gs1:epcis link is the
 * EPCIS query interface itself (GDST's tools add /events and their own query), the identifier's default
 * link; the second queries the identifier's events.
 */
export function linksOf(key: ResolvedKey, base: string, linkType?: LinkType): Link[] {
  const identifier = identifierOf(key);
  const link = (linkType: LinkType, href: string, title: string, isDefault: boolean): Link => ({
    link: href,
    title,
    linkType,
    ianaLanguage: 'en',
    context: 'xx',
    mimeType: 'application/ld+json',
    active: true,
    fwqs: false,
    defaultLinkType: isDefault,
    defaultIanaLanguage: true,
    defaultContext: true,
    defaultMimeType: true,
    identifier,
    authRequired: true,
  });
  const links: Link[] = [];
  if (!linkType || linkType === 'gs1:epcis') {
    links.push(link('gs1:epcis', `${base}/epcis`, 'EPCIS 2.0 query interface', true));
    const query = eventsQueryOf(key);
    if (query) links.push(link('gs1:epcis', `${base}/epcis/events?${query}`, 'EPCIS events of this identifier', false));
  }
  if ((!linkType || linkType === 'gs1:masterData') && linkTypesOf(key).includes('gs1:masterData'))
    links.push(link('gs1:masterData', masterDataUrlOf(key, base), 'Master data (GS1 Web Vocabulary)', false));
  return links;
}

/**
 * Where the identifier's master data is answered as JSON-LD whatever the request accepts: GDST's client
 * fetches a master data link with no Accept header, and reads JSON-LD there.
 */
export const masterDataUrlOf = (key: ResolvedKey, base: string): string => `${base}/masterdata${pathOf(key)}`;

/**
 * RFC 9264's linkset of the identifier: one context object, anchored at the identifier as events name it,
 * its links grouped by relation type (the Web Vocabulary IRI of the link type).
 */
export function linksetOf(key: ResolvedKey, base: string) {
  const relations: Record<string, { href: string; title: string; type: string }[]> = {};
  for (const link of linksOf(key, base))
    (relations[`${GS1_VOC}${link.linkType.slice(4)}`] ??= []).push({
      href: link.link,
      title: link.title,
      type: link.mimeType,
    });
  return { linkset: [{ anchor: identifierOf(key), ...relations }] };
}

/**
 * GS1 Web Vocabulary as the default vocabulary, so that members carry its bare terms (`gtin`,
 * `productName`, `globalLocationNumber`), as GDST's reference client maps them by name; `name` and an
 * address's `countryCode`, the names that client reads, are GS1's `physicalLocationName` and
 * `addressCountry`; GDST's vessel attributes are CBV master data attributes (`cbvmda:`) and GDST's own.
 */
const CONTEXT = {
  '@vocab': GS1_VOC,
  gs1: GS1_VOC,
  gdst: GDST_VOC,
  cbvmda: 'urn:epcglobal:cbv:mda#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  name: `${GS1_VOC}physicalLocationName`,
  countryCode: `${GS1_VOC}addressCountry`,
};

/**
 * A name as a JSON-LD value object of no stated language: GDST's client reads names as an array of
 * `{ "@language", "@value" }` only, and the service does not know the language a name was written in.
 */
const text = (value: string | null | undefined) => (value ? [{ '@value': value }] : undefined);

/** A JSON-LD node's context, id (the identifier as events name it) and type. */
const nodeOf = (key: ResolvedKey, type: string) => ({ '@context': CONTEXT, '@id': identifierOf(key), '@type': type });

/** The members that have a value. */
const defined = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined && v !== ''));

export interface ProductData {
  name: string;
  unit: string;
  /** The product's own master data entries (GDST species and the like): namespace IRI, name, value. */
  masterData: { namespace: string; name: string; value: string }[];
}

/**
 * A product (or one lot or serial of it) as gs1:Product, keyed by its `gtin`: the GTIN-14, or the product
 * class URN in its place (GDST's client keys a product by that member); its master data entries as
 * properties of their own namespace. A GDST lot the account's events name, of a class no master data
 * named, is its identity alone.
 */
export function productJsonLd(key: ResolvedKey, product: ProductData | undefined) {
  const extra: Record<string, string> = {};
  for (const entry of product?.masterData ?? []) extra[`${entry.namespace}${entry.name}`] = entry.value;
  return defined({
    ...nodeOf(key, 'gs1:Product'),
    gtin: key.id,
    productName: text(product?.name),
    hasBatchLotNumber: key.lot,
    hasSerialNumber: key.serial,
    netContent: product && { '@type': 'gs1:QuantitativeValue', unitCode: product.unit },
    ...extra,
  });
}

export interface PlaceData {
  name: string;
  partyName: string;
  address: Omit<StoredAddress, 'displayAddress'> | null;
  vessel: StoredVessel | null;
  captainsName: string | null;
}

/**
 * A location as gs1:Place, keyed by its `globalLocationNumber` (GLN, a sub-location's Digital Link, or the
 * location URN); a vessel with GDST's vessel attributes.
 */
export function placeJsonLd(key: ResolvedKey, place: PlaceData) {
  const address = place.address;
  const street = address && [address.addressLine1, address.addressLine2].filter(Boolean).join(', ');
  const geo = address?.geoCoordinates;
  return defined({
    ...nodeOf(key, 'gs1:Place'),
    // A sub-location has no GLN of its own: it is known by its Digital Link, as GDST's client keys it.
    globalLocationNumber: key.extension !== undefined && key.extension !== '0' ? identifierOf(key) : key.id,
    name: text(place.name),
    locationOwner: { '@type': 'gs1:Organization', organizationName: text(place.partyName) },
    address:
      address &&
      defined({
        '@type': 'gs1:PostalAddress',
        streetAddress: text(street),
        addressLocality: text(address.city),
        addressRegion: text(address.state),
        postalCode: address.postalCode,
        countryCode: address.country,
      }),
    geo: geo && { '@type': 'gs1:GeoCoordinates', latitude: geo.latitude, longitude: geo.longitude },
    ...(place.vessel
      ? defined({
          'cbvmda:vesselName': place.vessel.vesselName,
          'cbvmda:vesselFlagState': place.vessel.vesselFlagState,
          'cbvmda:vesselID': place.vessel.vesselRegistration,
          'gdst:imoNumber': place.vessel.imoNumber,
          'gdst:satelliteTracking': place.vessel.vesselSatelliteTrackingAuthority,
          'gdst:vesselPublicRegistry': place.vessel.vesselPublicRegistryLink,
          'cbvmda:unloadingPort': place.vessel.unloadingPort,
          'gdst:captainsName': place.captainsName,
        })
      : {}),
  });
}

/** A party as gs1:Organization, keyed by its `globalLocationNumber` (PGLN, or the party URN); one only events name has no name here. */
export const organizationJsonLd = (key: ResolvedKey, party: { name: string } | undefined) =>
  defined({
    ...nodeOf(key, 'gs1:Organization'),
    globalLocationNumber: key.id,
    organizationName: text(party?.name),
  });
