/**
 * Master data in an EPCIS document (`epcisHeader.epcisMasterData`): the vocabularies of EPC classes
 * (products, by GTIN) and of locations (business locations and read points, by GLN), with their CBV
 * master data attributes and GDST's vessel attributes. Pure: vocabularies in, what to store out.
 */
import type { AddressPayload, VesselPayload } from '../master-data';
import { physicalLocationOf, tradeItemOf } from './identifiers';

export interface EpcisVocabularyElement {
  id: string;
  attributes?: { id: string; attribute?: unknown }[];
  children?: string[];
}
export interface EpcisVocabulary {
  type: string;
  vocabularyElementList?: EpcisVocabularyElement[];
}

/** A product's master data as the document gives it: only what it names is changed. */
export interface EpcisProductData {
  /** The GTIN, or for a class of no GS1 key (GDST's `urn:gdst:…:product:class:…`) the URI that names it. */
  gtin?: string;
  uri?: string;
  /** JSON pointer of the vocabulary element. */
  pointer: string;
  name?: string;
}

export interface EpcisLocationData {
  /** The GLN, or for a location of no GS1 key (GDST's `urn:gdst:…:location:loc:…`) the URI that names it. */
  gln?: string;
  uri?: string;
  extension?: string;
  pointer: string;
  name?: string;
  address: Omit<AddressPayload, 'DisplayAddress'>;
  vessel: VesselPayload;
  captainsName?: string;
}

export interface EpcisMasterData {
  products: EpcisProductData[];
  locations: EpcisLocationData[];
  issues: { pointer: string; message: string }[];
}

/**
 * The vocabulary types read, by their local name (`urn:epcglobal:epcis:vtype:EPCClass`, or a Web URI ending
 * so) in any letter case: GDST's own documents write `vtype:epcclass` and `vtype:location`.
 */
const PRODUCT_TYPES = new Set(['epcclass']);
const LOCATION_TYPES = new Set(['businesslocation', 'readpoint', 'location']);

/** An attribute's local name, whatever its namespace (`urn:epcglobal:cbv:mda#city`, `cbvmda:city`, `gdst:vesselName`). */
const localName = (id: string): string =>
  id.slice(Math.max(id.lastIndexOf('#'), id.lastIndexOf(':'), id.lastIndexOf('/')) + 1);

const PRODUCT_NAMES = ['name', 'descriptionShort', 'tradeItemDescription', 'regulatedProductName', 'functionalName'];
const ADDRESS: Record<string, Exclude<keyof EpcisLocationData['address'], 'GeoCoordinates'>> = {
  streetAddressOne: 'AddressLine1',
  streetAddressTwo: 'AddressLine2',
  city: 'City',
  state: 'State',
  postalCode: 'PostalCode',
  countryCode: 'Country',
};
const VESSEL: Record<string, keyof EpcisLocationData['vessel']> = {
  vesselName: 'VesselName',
  vesselFlagState: 'VesselFlagState',
  vesselFlag: 'VesselFlagState',
  imoNumber: 'IMONumber',
  vesselID: 'VesselRegistration',
  vesselRegistration: 'VesselRegistration',
  satelliteTrackingAuthority: 'VesselSatelliteTrackingAuthority',
  vesselSatelliteTrackingAuthority: 'VesselSatelliteTrackingAuthority',
  vesselPublicRegistry: 'VesselPublicRegistryLink',
  vesselPublicRegistryLink: 'VesselPublicRegistryLink',
  unloadingPort: 'UnloadingPort',
};
/** The longest id a product or location is kept under. */
const ID_LIMIT = 1000;
/** A text longer than this is cut: master data names and addresses, not documents. */
const TEXT_LIMIT = 500;

const textOf = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value.trim().slice(0, TEXT_LIMIT) || undefined;
  if (typeof value === 'number') return String(value);
  return undefined;
};

/**
 * What the document's vocabularies say about products and locations. GS1's schema has checked that every
 * element id is a URI; one longer than the service keeps ids is an issue.
 */
export function epcisMasterDataOf(vocabularies: EpcisVocabulary[], pointer: string): EpcisMasterData {
  const out: EpcisMasterData = { products: [], locations: [], issues: [] };
  vocabularies.forEach((vocabulary, v) => {
    const type = localName(vocabulary.type).toLowerCase();
    const isProduct = PRODUCT_TYPES.has(type);
    const isLocation = LOCATION_TYPES.has(type);
    // Other vocabularies (parties, business transactions…) are kept with the document only.
    if (!isProduct && !isLocation) return;
    (vocabulary.vocabularyElementList ?? []).forEach((element, e) => {
      const at = `${pointer}/${v}/vocabularyElementList/${e}`;
      if (element.id.length > ID_LIMIT) {
        out.issues.push({ pointer: `${at}/id`, message: `${at}/id is longer than ${ID_LIMIT} characters.` });
        return;
      }
      const attributes = new Map<string, unknown>();
      for (const attribute of element.attributes ?? []) attributes.set(localName(attribute.id), attribute.attribute);
      if (isProduct) {
        const item = tradeItemOf(element.id);
        const name = PRODUCT_NAMES.map((key) => textOf(attributes.get(key))).find(Boolean);
        out.products.push({
          ...(item ? { gtin: item.gtin } : { uri: element.id }),
          pointer: at,
          ...(name ? { name } : {}),
        });
        return;
      }
      const place = physicalLocationOf(element.id);
      const location: EpcisLocationData = {
        ...(place ? { gln: place.gln } : { uri: element.id }),
        ...(place?.extension !== undefined ? { extension: place.extension } : {}),
        pointer: at,
        address: {},
        vessel: {},
      };
      for (const [key, value] of attributes) {
        const text = textOf(value);
        if (text === undefined) continue;
        if (key === 'name') location.name = text;
        else if (ADDRESS[key]) location.address[ADDRESS[key]] = text;
        else if (VESSEL[key]) location.vessel[VESSEL[key]] = text;
        else if (key === 'captainsName' || key === 'vesselOwner') location.captainsName ??= text;
      }
      const latitude = Number(attributes.get('latitude'));
      const longitude = Number(attributes.get('longitude'));
      if (
        attributes.has('latitude') &&
        attributes.has('longitude') &&
        Math.abs(latitude) <= 90 &&
        Math.abs(longitude) <= 180
      )
        location.address.GeoCoordinates = { Latitude: latitude, Longitude: longitude };
      out.locations.push(location);
    });
  });
  return out;
}
