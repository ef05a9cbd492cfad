/**
 * Master data as SPEC.md's payloads carry it (PascalCase, as sent), and its mapping to stored rows.
 * Shared by the master-data endpoints and by events that carry products and locations inline.
 */
import { normaliseUnit } from './units';

export type ConnectionType = 'SELF' | 'SUPPLIER' | 'BUYER' | 'OTHER';

export interface TradePartnerPayload {
  Id: string;
  Name: string;
  ConnectionType: ConnectionType;
  Duns?: string;
  Pgln?: string;
}

export interface GeoCoordinatesPayload {
  Latitude: number;
  Longitude: number;
}

export interface AddressPayload {
  City?: string;
  State?: string;
  Country?: string;
  AddressLine1?: string;
  AddressLine2?: string;
  PostalCode?: string;
  GeoCoordinates?: GeoCoordinatesPayload;
  DisplayAddress?: string;
}

export interface ContactPayload {
  Name?: string;
  Phone?: string;
  Email?: string;
}

export interface VesselPayload {
  VesselName?: string;
  VesselFlagState?: string;
  IMONumber?: string;
  VesselSatelliteTrackingAuthority?: string;
  VesselPublicRegistryLink?: string;
  VesselRegistration?: string;
  UnloadingPort?: string;
}

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
  Details: LocationDetailsPayload;
}

export interface MasterDataPayload {
  name: string;
  namespace: string;
  value: string;
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
  MasterData?: MasterDataPayload[];
}

export interface ProductPayload {
  Id: string;
  Details: ProductDetailsPayload;
}

export const locationIdOf = (payload: { id?: string; Id?: string }): string | undefined => payload.id ?? payload.Id;

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

export function addressFromPayload(address: AddressPayload | undefined) {
  if (!address) return null;
  const geo = address.GeoCoordinates;
  const lines = [address.AddressLine1, address.AddressLine2, address.City, address.State, address.PostalCode, address.Country];
  return {
    city: orNull(address.City),
    state: orNull(address.State),
    country: orNull(address.Country),
    addressLine1: orNull(address.AddressLine1),
    addressLine2: orNull(address.AddressLine2),
    postalCode: orNull(address.PostalCode),
    geoCoordinates: geo ? { latitude: geo.Latitude, longitude: geo.Longitude } : null,
    displayAddress: address.DisplayAddress ?? (lines.filter(Boolean).join(', ') || (geo ? `${geo.Latitude}, ${geo.Longitude}` : null)),
  };
}

export function contactFromPayload(contact: ContactPayload | undefined) {
  return contact ? { name: orNull(contact.Name), phone: orNull(contact.Phone), email: orNull(contact.Email) } : null;
}

export function vesselFromPayload(vessel: VesselPayload | undefined) {
  if (!vessel) return null;
  return {
    vesselName: orNull(vessel.VesselName),
    vesselFlagState: orNull(vessel.VesselFlagState),
    imoNumber: orNull(vessel.IMONumber),
    vesselSatelliteTrackingAuthority: orNull(vessel.VesselSatelliteTrackingAuthority),
    vesselPublicRegistryLink: orNull(vessel.VesselPublicRegistryLink),
    vesselRegistration: orNull(vessel.VesselRegistration),
    unloadingPort: orNull(vessel.UnloadingPort),
  };
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
