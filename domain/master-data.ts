/**
 * Master data as SPEC.md's payloads carry it (PascalCase, as sent), and its mapping to stored rows.
 * Shared by the master-data endpoints and by events that carry products and locations inline.
 */
import type { JSONSchema } from 'json-schema-to-ts';
import type { KnownFrom } from './schemas/paired';
import type { address, contactProperties, vessel } from './schemas/locations';
import { normaliseUnit, unitsAcceptedMessage } from './units';
import { glnProblem, gtinProblem } from './gs1-keys';

export type ConnectionType = 'SELF' | 'SUPPLIER' | 'BUYER' | 'OTHER';

export interface TradePartnerPayload {
  Id: string;
  Name: string;
  ConnectionType: ConnectionType;
  Duns?: string;
  Pgln?: string;
  /** The caller's own URN for a new trade partner (URN-based events); else the service generates one. */
  Urn?: string;
}

/** An object schema's properties, each optional, as the values their schemas accept. */
type OptionalFields<P> = { -readonly [K in keyof P]?: P[K] extends JSONSchema ? KnownFrom<P[K]> : never };

export type AddressPayload = OptionalFields<typeof address.properties>;
export type ContactPayload = OptionalFields<typeof contactProperties>;
export type VesselPayload = OptionalFields<typeof vessel.properties>;

export interface LocationDetailsPayload {
  TradePartner: TradePartnerPayload;
  Name: string;
  Gln?: string;
  Extension?: string;
  DunsPlus4?: string;
  Duns?: string;
  CaptainsName?: string;
  Vessel?: VesselPayload;
  ContactInformation?: ContactPayload;
  Address?: AddressPayload;
}

/** SPEC.md shows both `id` and `Id` as the location identifier key. */
export interface LocationPayload {
  id?: string;
  Id?: string;
  /** The caller's own URN for a new location (URN-based events); else the service generates one. */
  Urn?: string;
  Details: LocationDetailsPayload;
}

export interface ProductDetailsPayload {
  Name: string;
  SimpleUnitOfMeasurement: string;
  UnitQuantity?: number;
  UnitDescriptor?: 'Cases' | 'Units' | 'Totes' | 'Pallets';
  SharingPolicy: 'Open' | 'Restricted';
  ProductIdentifierType: 'Lot' | 'Serial';
  /** `Gtin`/`Plu` on the products endpoint, `GTIN`/`PLU` inside events (SPEC.md). */
  Gtin?: string;
  GTIN?: string;
  Plu?: string;
  PLU?: string;
  MasterData?: { name: string; namespace: string; value: string }[];
}

export interface ProductPayload {
  Id: string;
  /** The caller's own URN for a new product (URN-based events); else the service generates one. */
  Urn?: string;
  Details: ProductDetailsPayload;
}

export const locationIdOf = (payload: { id?: string; Id?: string }): string | undefined => payload.id ?? payload.Id;

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

export function addressFromPayload(address: AddressPayload | undefined) {
  if (!address) return null;
  const geo = address.GeoCoordinates;
  const lines = [
    address.AddressLine1,
    address.AddressLine2,
    address.City,
    address.State,
    address.PostalCode,
    address.Country,
  ];
  return {
    city: orNull(address.City),
    state: orNull(address.State),
    country: orNull(address.Country),
    addressLine1: orNull(address.AddressLine1),
    addressLine2: orNull(address.AddressLine2),
    postalCode: orNull(address.PostalCode),
    geoCoordinates: geo ? { latitude: geo.Latitude, longitude: geo.Longitude } : null,
    displayAddress:
      address.DisplayAddress ??
      (lines.filter(Boolean).join(', ') || (geo ? `${geo.Latitude}, ${geo.Longitude}` : null)),
  };
}

export function contactFromPayload(contact: ContactPayload | undefined) {
  return contact ? { name: orNull(contact.Name), phone: orNull(contact.Phone), email: orNull(contact.Email) } : null;
}

/** A vessel's stored fields, in their stored order, and the payload fields they come from. */
const VESSEL_FIELDS = {
  vesselName: 'VesselName',
  vesselFlagState: 'VesselFlagState',
  imoNumber: 'IMONumber',
  vesselSatelliteTrackingAuthority: 'VesselSatelliteTrackingAuthority',
  vesselPublicRegistryLink: 'VesselPublicRegistryLink',
  vesselRegistration: 'VesselRegistration',
  unloadingPort: 'UnloadingPort',
} as const satisfies Record<string, keyof VesselPayload>;
const VESSEL_ENTRIES = Object.entries(VESSEL_FIELDS) as [keyof typeof VESSEL_FIELDS, keyof VesselPayload][];

export type StoredVessel = { [K in keyof typeof VESSEL_FIELDS]: string | null };

export function vesselFromPayload(vessel: VesselPayload | undefined): StoredVessel | null {
  if (!vessel) return null;
  return Object.fromEntries(VESSEL_ENTRIES.map(([stored, sent]) => [stored, orNull(vessel[sent])])) as StoredVessel;
}

/** Location columns from a payload's Details (everything but ids, URN and trade partner). */
export function locationAttributes(details: LocationDetailsPayload) {
  return {
    name: details.Name,
    gln: orNull(details.Gln),
    duns: orNull(details.Duns),
    dunsPlus4: orNull(details.DunsPlus4),
    extension: orNull(details.Extension),
    captainsName: orNull(details.CaptainsName),
    address: addressFromPayload(details.Address),
    contact: contactFromPayload(details.ContactInformation),
    vessel: vesselFromPayload(details.Vessel),
  };
}

export class UnknownUnitError extends Error {
  constructor(readonly unit: string) {
    super(`Unknown unit of measure "${unit}".`);
  }
}

/** Product columns from a payload's Details; the unit is normalised to its Rec 20 code. */
export function productAttributes(details: ProductDetailsPayload) {
  const unit = normaliseUnit(details.SimpleUnitOfMeasurement);
  if (!unit) throw new UnknownUnitError(details.SimpleUnitOfMeasurement);
  return {
    name: details.Name,
    unitOfMeasure: unit,
    unitQuantity: details.UnitQuantity === undefined ? null : String(details.UnitQuantity),
    unitDescriptor: orNull(details.UnitDescriptor),
    sharingPolicy: details.SharingPolicy,
    identifierType: details.ProductIdentifierType,
    gtin: details.Gtin ?? details.GTIN ?? null,
    plu: details.Plu ?? details.PLU ?? null,
    masterData: (details.MasterData ?? []).map(({ name, namespace, value }) => ({ name, namespace, value })),
  };
}

/**
 * One problem with one element of a master-data request, as the four-key body reports it.
 * `field` is the payload path (`Locations[0].Details.Address.City`); `index`/`id` are null when the
 * problem is with the request as a whole.
 */
export interface MasterDataIssue {
  index: number | null;
  id: string | null;
  field: string;
  message: string;
}

/** SPEC.md lists only these three for vessels (OTHER is for standard locations). */
export const VESSEL_CONNECTION_TYPES: readonly ConnectionType[] = ['SELF', 'SUPPLIER', 'BUYER'];

const STREET_FIELDS = ['City', 'Country', 'AddressLine1'] as const;

/** SPEC.md: City, Country and AddressLine1 are required unless GeoCoordinates identify the place. */
export function addressIssues(address: AddressPayload, field: string): Array<{ field: string; message: string }> {
  if (address.GeoCoordinates) return [];
  return STREET_FIELDS.filter((name) => !address[name]?.trim()).map((name) => ({
    field: `${field}.${name}`,
    message: `${field}.${name} is required when ${field}.GeoCoordinates are not given.`,
  }));
}

/** A vessel is a location with a Vessel object; it needs a contact and one of three connection types. */
export function vesselIssues(
  details: Pick<LocationUpdateDetailsPayload, 'TradePartner' | 'Vessel' | 'CaptainsName'>,
  field: string,
  isVessel: boolean,
): Array<{ field: string; message: string }> {
  const issues: Array<{ field: string; message: string }> = [];
  if (!isVessel) {
    for (const name of ['Vessel', 'CaptainsName'] as const) {
      if (details[name] !== undefined)
        issues.push({ field: `${field}.${name}`, message: `${field}.${name} can only be set on a vessel location.` });
    }
    return issues;
  }
  const connectionType = details.TradePartner?.ConnectionType;
  if (connectionType && !VESSEL_CONNECTION_TYPES.includes(connectionType)) {
    issues.push({
      field: `${field}.TradePartner.ConnectionType`,
      message: `${field}.TradePartner.ConnectionType of a vessel must be one of: ${VESSEL_CONNECTION_TYPES.join(', ')}.`,
    });
  }
  return issues;
}

/** Every element names its location under `id` or `Id` (not two different ones), once per request. */
export function locationIdIssues(
  locations: Array<{ id?: string; Id?: string }>,
  prefixOf: (index: number) => string,
): MasterDataIssue[] {
  const issues: MasterDataIssue[] = [];
  const firstIndexOf = new Map<string, number>();
  locations.forEach((location, index) => {
    const prefix = prefixOf(index);
    const id = locationIdOf(location) ?? null;
    const add = (message: string) => issues.push({ index, id, field: `${prefix}.id`, message });
    if (location.id !== undefined && location.Id !== undefined && location.id !== location.Id) {
      add(`${prefix} carries two different ids ("${location.id}" and "${location.Id}"); send one of id or Id.`);
    }
    const seen = id === null ? undefined : firstIndexOf.get(id);
    if (id === null) add(`${prefix}.id is required.`);
    else if (seen !== undefined)
      add(`Location id "${id}" is also used by ${prefixOf(seen)}; every location needs its own id.`);
    else firstIndexOf.set(id, index);
  });
  return issues;
}

/**
 * The create rules JSON Schema cannot express, over a request the schema already accepted:
 * an id under `id` or `Id`, ids unique within the request, address or coordinates, vessel rules, and
 * one name per trade partner id within the request.
 */
export function locationCreateIssues(locations: LocationPayload[], collection = 'Locations'): MasterDataIssue[] {
  const issues = locationIdIssues(locations, (index) => `${collection}[${index}]`);
  const partnerNames = new Map<string, { name: string; index: number }>();
  locations.forEach((location, index) => {
    const prefix = `${collection}[${index}]`;
    const add = (field: string, message: string) =>
      issues.push({ index, id: locationIdOf(location) ?? null, field, message });
    const details = location.Details;
    const gln = details.Gln ? glnProblem(details.Gln) : null;
    if (gln) add(`${prefix}.Details.Gln`, gln);
    if (details.Address)
      for (const issue of addressIssues(details.Address, `${prefix}.Details.Address`)) add(issue.field, issue.message);
    const isVessel = details.Vessel !== undefined;
    for (const issue of vesselIssues(details, `${prefix}.Details`, isVessel)) add(issue.field, issue.message);
    if (isVessel && !details.ContactInformation)
      add(`${prefix}.Details.ContactInformation`, `${prefix}.Details.ContactInformation is required for a vessel.`);

    const partner = details.TradePartner;
    const seen = partnerNames.get(partner.Id);
    if (!seen) partnerNames.set(partner.Id, { name: partner.Name, index });
    else if (seen.name !== partner.Name) {
      add(
        `${prefix}.Details.TradePartner.Name`,
        `Trade partner ${partner.Id} is named "${seen.name}" in ${collection}[${seen.index}] and "${partner.Name}" here; a trade partner id is never reused for another organization.`,
      );
    }
  });
  return issues;
}

/** Ids unique within the request, a unit of measure the service knows, and a GTIN that is one. */
export function productCreateIssues(
  products: Array<{ Id: string; Details: Partial<ProductDetailsPayload> }>,
  collection = 'Products',
): MasterDataIssue[] {
  const issues: MasterDataIssue[] = [];
  const firstIndexOf = new Map<string, number>();
  products.forEach((product, index) => {
    const prefix = `${collection}[${index}]`;
    const seen = firstIndexOf.get(product.Id);
    if (seen !== undefined) {
      issues.push({
        index,
        id: product.Id,
        field: `${prefix}.Id`,
        message: `Product id "${product.Id}" is also used by ${collection}[${seen}]; every product needs its own id.`,
      });
    } else firstIndexOf.set(product.Id, index);
    issues.push(
      ...unitIssues(product.Details, `${prefix}.Details`).map((issue) => ({ index, id: product.Id, ...issue })),
    );
    const gtin = product.Details.Gtin ? gtinProblem(product.Details.Gtin) : null;
    if (gtin) issues.push({ index, id: product.Id, field: `${prefix}.Details.Gtin`, message: gtin });
  });
  return issues;
}

export function unitIssues(
  details: Partial<ProductDetailsPayload>,
  field: string,
): Array<{ field: string; message: string }> {
  const unit = details.SimpleUnitOfMeasurement;
  if (unit === undefined || normaliseUnit(unit)) return [];
  return [
    {
      field: `${field}.SimpleUnitOfMeasurement`,
      message: `Unknown unit of measure "${unit}". ${unitsAcceptedMessage()}`,
    },
  ];
}

/** PUT bodies: only the ids are required; every other field present is a change, every absent one is kept. */
export interface LocationUpdateDetailsPayload extends Partial<Omit<LocationDetailsPayload, 'TradePartner'>> {
  TradePartner?: Partial<TradePartnerPayload> & { Id: string };
}

export interface LocationUpdatePayload extends Pick<LocationPayload, 'id' | 'Id'> {
  Details: LocationUpdateDetailsPayload;
}

export type StoredAddress = NonNullable<ReturnType<typeof addressFromPayload>>;
export type StoredContact = NonNullable<ReturnType<typeof contactFromPayload>>;

const orUndefined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

function addressToPayload(address: StoredAddress | null): AddressPayload {
  if (!address) return {};
  const geo = address.geoCoordinates;
  return {
    City: orUndefined(address.city),
    State: orUndefined(address.state),
    Country: orUndefined(address.country),
    AddressLine1: orUndefined(address.addressLine1),
    AddressLine2: orUndefined(address.addressLine2),
    PostalCode: orUndefined(address.postalCode),
    GeoCoordinates: geo ? { Latitude: geo.latitude, Longitude: geo.longitude } : undefined,
    DisplayAddress: orUndefined(address.displayAddress),
  };
}

const contactToPayload = (contact: StoredContact | null): ContactPayload =>
  contact
    ? { Name: orUndefined(contact.name), Phone: orUndefined(contact.phone), Email: orUndefined(contact.email) }
    : {};

const vesselToPayload = (vessel: StoredVessel | null): VesselPayload =>
  vessel ? Object.fromEntries(VESSEL_ENTRIES.map(([stored, sent]) => [sent, orUndefined(vessel[stored])])) : {};

const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * The stored address with the sent fields laid over it. A stored display address describes the old
 * lines, so it is recomputed when any line changes, unless the request sends its own.
 */
export function mergeAddress(stored: StoredAddress | null, patch: AddressPayload): AddressPayload {
  const merged: AddressPayload = { ...definedOnly(addressToPayload(stored)), ...definedOnly(patch) };
  const linesChanged = Object.keys(definedOnly(patch)).some((key) => key !== 'DisplayAddress');
  if (linesChanged && patch.DisplayAddress === undefined) delete merged.DisplayAddress;
  return merged;
}

export type StoredLocationParts = Pick<ReturnType<typeof locationAttributes>, 'address' | 'contact' | 'vessel'>;

/**
 * What an update changes on the location row (SPEC.md's updatable fields only), and the merged
 * address and contact the update rules check. Absent fields are left out, so they stay as stored.
 */
export function locationUpdate(stored: StoredLocationParts, details: LocationUpdateDetailsPayload, isVessel: boolean) {
  const address = details.Address ? mergeAddress(stored.address, details.Address) : undefined;
  const contact = details.ContactInformation
    ? { ...definedOnly(contactToPayload(stored.contact)), ...definedOnly(details.ContactInformation) }
    : undefined;
  const vessel =
    isVessel && details.Vessel
      ? { ...definedOnly(vesselToPayload(stored.vessel)), ...definedOnly(details.Vessel) }
      : undefined;
  const attributes = definedOnly({
    name: details.Name,
    gln: details.Gln,
    extension: details.Extension,
    captainsName: isVessel ? details.CaptainsName : undefined,
    address: address && addressFromPayload(address),
    contact: contact && contactFromPayload(contact),
    vessel: vessel && vesselFromPayload(vessel),
  });
  return { attributes, address, contact };
}

/** The rules an update must keep: a complete address or coordinates, a named contact, vessel rules. */
export function locationUpdateIssues(
  merged: { address?: AddressPayload; contact?: ContactPayload },
  details: LocationUpdateDetailsPayload,
  field: string,
  isVessel: boolean,
): Array<{ field: string; message: string }> {
  const issues = merged.address ? addressIssues(merged.address, `${field}.Address`) : [];
  const gln = details.Gln ? glnProblem(details.Gln) : null;
  if (gln) issues.push({ field: `${field}.Gln`, message: gln });
  if (merged.contact && !merged.contact.Name?.trim()) {
    issues.push({
      field: `${field}.ContactInformation.Name`,
      message: `${field}.ContactInformation.Name is required.`,
    });
  }
  issues.push(...vesselIssues(details, field, isVessel));
  return issues;
}

/** What an update cannot change, as stored: the location's DUNS numbers and its trade partner's. */
export interface UnchangeableFields {
  duns: string | null;
  dunsPlus4: string | null;
  tradePartner: { duns: string | null; pgln: string | null };
}

/**
 * SPEC.md's Location shape has fields an update does not change (its list of updatable ones leaves
 * them out): a body that carries one with its stored value is taken (a location sent back as
 * created), one with another value is refused, never dropped.
 */
export function unchangeableIssues(
  stored: UnchangeableFields,
  details: LocationUpdateDetailsPayload,
  field: string,
): Array<{ field: string; message: string }> {
  const sent: Array<[string, string | undefined, string | null]> = [
    ['Duns', details.Duns, stored.duns],
    ['DunsPlus4', details.DunsPlus4, stored.dunsPlus4],
    ['TradePartner.Duns', details.TradePartner?.Duns, stored.tradePartner.duns],
    ['TradePartner.Pgln', details.TradePartner?.Pgln, stored.tradePartner.pgln],
  ];
  return sent
    .filter(([, value, current]) => value !== undefined && value !== current)
    .map(([name, value, current]) => ({
      field: `${field}.${name}`,
      message: `${field}.${name} cannot be changed by an update (stored: ${current === null ? 'none' : `"${current}"`}, sent: "${value}"); send the stored value or leave it out.`,
    }));
}

/** Product columns for the Details fields an update carries; the unit is normalised like on create. */
export function productUpdateAttributes(details: Partial<ProductDetailsPayload>) {
  const unit = details.SimpleUnitOfMeasurement;
  const unitOfMeasure = unit === undefined ? undefined : normaliseUnit(unit);
  if (unit !== undefined && !unitOfMeasure) throw new UnknownUnitError(unit);
  return definedOnly({
    name: details.Name,
    unitOfMeasure,
    unitQuantity: details.UnitQuantity === undefined ? undefined : String(details.UnitQuantity),
    unitDescriptor: details.UnitDescriptor,
    sharingPolicy: details.SharingPolicy,
    identifierType: details.ProductIdentifierType,
    gtin: details.Gtin ?? details.GTIN,
    plu: details.Plu ?? details.PLU,
    masterData: details.MasterData?.map(({ name, namespace, value }) => ({ name, namespace, value })),
  });
}
