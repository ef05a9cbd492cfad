/**
 * The answers of a GS1 Digital Link resolver (GS1-Conformant Resolver standard) for one identifier:
 * the links it has (`gs1:epcis`: the EPCIS query interface; `gs1:masterData`: the master data), as the
 * JSON array GDST's capability tools read, as an RFC 9264 linkset, and the master data itself in GS1
 * Web Vocabulary JSON-LD with GDST's vessel and species attributes. Pure.
 */
export const LINK_TYPES = ['gs1:epcis', 'gs1:masterData'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

const GS1_VOC = 'https://gs1.org/voc/';
/** GDST's vocabulary namespace, as GDST 1.2's JSON-LD context names it. */
const GDST_VOC = 'https://traceability-dialogue.org/vocab/';

/** A Digital Link path this service resolves: the primary key with its qualifier. */
export type ResolvedKey =
  { ai: '01'; gtin: string; lot?: string; serial?: string } | { ai: '414'; gln: string } | { ai: '417'; pgln: string };

/** The identifier's path (`/01/…/10/…`), as on id.gs1.org and on this resolver. */
export function pathOf(key: ResolvedKey): string {
  if (key.ai === '414') return `/414/${key.gln}`;
  if (key.ai === '417') return `/417/${key.pgln}`;
  const base = `/01/${key.gtin}`;
  if (key.lot !== undefined) return `${base}/10/${encodeURIComponent(key.lot)}`;
  if (key.serial !== undefined) return `${base}/21/${encodeURIComponent(key.serial)}`;
  return base;
}

/** The EPCIS query of the identifier's events: by class for a GTIN or lot, by EPC for a serial, by location for a GLN. */
function eventsQueryOf(key: ResolvedKey): string | undefined {
  const anchor = `https://id.gs1.org${pathOf(key)}`;
  if (key.ai === '01')
    return key.serial !== undefined
      ? `MATCH_anyEPC=${encodeURIComponent(anchor)}`
      : `MATCH_anyEPCClass=${encodeURIComponent(anchor)}`;
  if (key.ai === '414') return `EQ_bizLocation=${encodeURIComponent(anchor)}`;
  return undefined;
}

export interface Link {
  link: string;
  linkType: LinkType;
  title: string;
  type: string;
  authRequired: boolean;
}

/**
 * The identifier's links of one type (all types when none is asked). The first gs1:epcis link is the
 * EPCIS query interface itself (GDST's tools add /events and their own query); the second queries the
 * identifier's events.
 */
export function linksOf(key: ResolvedKey, base: string, linkType?: LinkType): Link[] {
  const links: Link[] = [];
  if (!linkType || linkType === 'gs1:epcis') {
    links.push({
      link: `${base}/epcis`,
      linkType: 'gs1:epcis',
      title: 'EPCIS 2.0 query interface',
      type: 'application/ld+json',
      authRequired: true,
    });
    const query = eventsQueryOf(key);
    if (query)
      links.push({
        link: `${base}/epcis/events?${query}`,
        linkType: 'gs1:epcis',
        title: 'EPCIS events of this identifier',
        type: 'application/ld+json',
        authRequired: true,
      });
  }
  if (!linkType || linkType === 'gs1:masterData') {
    links.push({
      link: `${base}${pathOf(key)}?linkType=gs1:masterData`,
      linkType: 'gs1:masterData',
      title: 'Master data (GS1 Web Vocabulary)',
      type: 'application/ld+json',
      authRequired: true,
    });
  }
  return links;
}

/** RFC 9264's linkset of the identifier: one context object, its links grouped by relation type (the Web Vocabulary IRI of the link type). */
export function linksetOf(key: ResolvedKey, base: string) {
  const relations: Record<string, { href: string; title: string; type: string }[]> = {};
  for (const link of linksOf(key, base))
    (relations[`${GS1_VOC}${link.linkType.slice(4)}`] ??= []).push({
      href: link.link,
      title: link.title,
      type: link.type,
    });
  return { linkset: [{ anchor: `https://id.gs1.org${pathOf(key)}`, ...relations }] };
}

const CONTEXT = { gs1: GS1_VOC, gdst: GDST_VOC, xsd: 'http://www.w3.org/2001/XMLSchema#' };

export interface ProductData {
  gtin: string;
  name: string;
  unit: string;
  /** The product's own master data entries (GDST species and the like): namespace IRI, name, value. */
  masterData: { namespace: string; name: string; value: string }[];
}

/** A product (or one lot or serial of it) as gs1:Product; its master data entries as properties of their own namespace. */
export function productJsonLd(key: Extract<ResolvedKey, { ai: '01' }>, product: ProductData) {
  const extra: Record<string, string> = {};
  for (const entry of product.masterData) extra[`${entry.namespace}${entry.name}`] = entry.value;
  return {
    '@context': CONTEXT,
    '@id': `https://id.gs1.org${pathOf(key)}`,
    '@type': 'gs1:Product',
    'gs1:gtin': product.gtin,
    'gs1:productName': product.name,
    ...(key.lot !== undefined ? { 'gs1:hasBatchLotNumber': key.lot } : {}),
    ...(key.serial !== undefined ? { 'gs1:hasSerialNumber': key.serial } : {}),
    'gs1:netContent': { '@type': 'gs1:QuantitativeValue', 'gs1:unitCode': product.unit },
    ...extra,
  };
}

export interface PlaceData {
  gln: string;
  name: string;
  partyName: string;
  address: {
    addressLine1: string | null;
    addressLine2: string | null;
    city: string | null;
    state: string | null;
    postalCode: string | null;
    country: string | null;
    geoCoordinates: { latitude: number; longitude: number } | null;
  } | null;
  vessel: {
    vesselName: string | null;
    vesselFlagState: string | null;
    imoNumber: string | null;
    vesselRegistration: string | null;
    vesselSatelliteTrackingAuthority: string | null;
    vesselPublicRegistryLink: string | null;
    unloadingPort: string | null;
  } | null;
  captainsName: string | null;
}

const defined = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined && v !== ''));

/** A location as gs1:Place (a vessel with GDST's vessel attributes). */
export function placeJsonLd(place: PlaceData) {
  const address = place.address;
  return {
    '@context': CONTEXT,
    '@id': `https://id.gs1.org/414/${place.gln}`,
    '@type': 'gs1:Place',
    'gs1:globalLocationNumber': place.gln,
    'gs1:physicalLocationName': place.name,
    'gs1:locationOwner': { '@type': 'gs1:Organization', 'gs1:organizationName': place.partyName },
    ...(address
      ? {
          'gs1:address': defined({
            '@type': 'gs1:PostalAddress',
            'gs1:streetAddress': [address.addressLine1, address.addressLine2].filter(Boolean).join(', ') || null,
            'gs1:addressLocality': address.city,
            'gs1:addressRegion': address.state,
            'gs1:postalCode': address.postalCode,
            'gs1:addressCountry': address.country,
          }),
          ...(address.geoCoordinates
            ? {
                'gs1:geo': {
                  '@type': 'gs1:GeoCoordinates',
                  'gs1:latitude': address.geoCoordinates.latitude,
                  'gs1:longitude': address.geoCoordinates.longitude,
                },
              }
            : {}),
        }
      : {}),
    ...(place.vessel
      ? defined({
          'gdst:vesselName': place.vessel.vesselName,
          'gdst:vesselFlagState': place.vessel.vesselFlagState,
          'gdst:imoNumber': place.vessel.imoNumber,
          'gdst:vesselID': place.vessel.vesselRegistration,
          'gdst:satelliteTrackingAuthority': place.vessel.vesselSatelliteTrackingAuthority,
          'gdst:vesselPublicRegistry': place.vessel.vesselPublicRegistryLink,
          'gdst:unloadingPort': place.vessel.unloadingPort,
          'gdst:captainsName': place.captainsName,
        })
      : {}),
  };
}

/** A party as gs1:Organization. */
export const organizationJsonLd = (party: { pgln: string; name: string }) => ({
  '@context': CONTEXT,
  '@id': `https://id.gs1.org/417/${party.pgln}`,
  '@type': 'gs1:Organization',
  'gs1:partyGLN': party.pgln,
  'gs1:organizationName': party.name,
});
