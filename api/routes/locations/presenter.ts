/** Location rows → response bodies: SPEC.md's list element and update result, nothing more. */
import type { AccountRef, LocationWithPartner } from '../../../db/repositories/master-data';
import type { Address } from '../../../db/models/location';

/**
 * Coordinates as numbers, or null: jsonb keeps numbers as numbers, but an address written by hand (or
 * stored before events checked their Address) may hold strings, or only one of the two.
 */
export function coordinatesOf(address: Address | null): { latitude: number; longitude: number } | null {
  const geo = address?.geoCoordinates;
  const latitude = Number(geo?.latitude);
  const longitude = Number(geo?.longitude);
  return geo && Number.isFinite(latitude) && Number.isFinite(longitude) ? { latitude, longitude } : null;
}

function presentAddress(address: Address | null) {
  if (!address) return null;
  const geo = coordinatesOf(address);
  return {
    city: address.city ?? null,
    state: address.state ?? null,
    country: address.country ?? null,
    addressLine1: address.addressLine1 ?? null,
    addressLine2: address.addressLine2 ?? null,
    postalCode: address.postalCode ?? null,
    geoCoordinates: geo,
    displayAddress: address.displayAddress ?? null,
  };
}

/** SPEC.md, "Location as returned by the list operation". */
export function presentLocation({ location, tradePartner }: LocationWithPartner) {
  return {
    id: location.externalId,
    urn: location.urn,
    details: {
      tradePartner: {
        id: tradePartner.externalId,
        urn: tradePartner.urn,
        name: tradePartner.name,
        pgln: tradePartner.pgln,
        connectionType: tradePartner.connectionType,
        duns: tradePartner.duns,
      },
      name: location.name,
      gln: location.gln,
      dunsPlus4: location.dunsPlus4,
      externalIdentifier: location.externalId,
      extension: location.extension,
      captainsName: location.captainsName,
      address: presentAddress(location.address),
      contact: location.contact,
      vessel: location.vessel,
      foodFacilityRegistrationNumber: location.foodFacilityRegistrationNumber,
      locationType: location.locationType,
    },
    updateIfExists: false,
  };
}

/** SPEC.md, "Location as returned by the update operation"; fields the service has no notion of are empty. */
export function presentUpdatedLocation(
  { location, tradePartner }: LocationWithPartner,
  owner: AccountRef,
  hasActiveInventory: boolean,
) {
  const address = presentAddress(location.address);
  const geo = address?.geoCoordinates;
  return {
    id: location.externalId,
    accountId: location.accountId,
    tradePartnerId: tradePartner.externalId,
    networkStatus: null,
    tradePartnerName: tradePartner.name,
    tradePartnerUrn: tradePartner.urn,
    name: location.name,
    gln: location.gln,
    duns: location.duns,
    externalIdentifier: location.externalId,
    extension: location.extension,
    captainsName: location.captainsName,
    urn: location.urn,
    hasActiveInventory,
    address,
    contact: location.contact,
    vessel: location.vessel,
    wholechainId: null,
    sharedWith: [],
    createdTime: location.createdAt.toISOString(),
    isDefault: false,
    // GeoJSON orders a position longitude first (RFC 7946).
    geoJson: geo ? { type: 'Point', coordinates: [geo.longitude, geo.latitude] } : null,
    foodFacilityRegistrationNumber: location.foodFacilityRegistrationNumber,
    locationGroupId: null,
    locationType: location.locationType,
    locationGroup: null,
    dataPolicyElements: [],
    ownerInfo: { accountId: owner.id, accountName: owner.name },
  };
}
