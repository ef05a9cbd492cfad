import { randomBytes } from 'node:crypto';
import type { LocationPayload, ProductPayload } from '../../domain/master-data';

export type Overrides<T> = {
  [K in keyof T]?: T[K] extends Array<unknown>
    ? T[K]
    : T[K] extends object | undefined
      ? Overrides<T[K]> | undefined
      : T[K];
};

const unique = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

/** Objects merge key by key; an override of `undefined` removes the key (to send a payload without it). */
function merge<T>(base: T, overrides: Overrides<T> | undefined): T {
  if (!overrides) return base;
  const result: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(overrides)) {
    const current = result[key];
    if (value === undefined) delete result[key];
    else if (
      value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      current &&
      typeof current === 'object' &&
      !Array.isArray(current)
    ) {
      result[key] = merge(current, value as Overrides<typeof current>);
    } else result[key] = value;
  }
  return result as T;
}

/** A valid standard location with a street address and a new trade partner. */
export function buildLocationPayload(overrides?: Overrides<LocationPayload>): LocationPayload {
  return merge<LocationPayload>(
    {
      id: unique('LOC'),
      Details: {
        TradePartner: { Id: unique('TP'), Name: 'Acme Seafood', ConnectionType: 'SUPPLIER', Duns: '123456789' },
        Name: 'Oslo plant',
        Gln: '7038010000010',
        Duns: '123456789',
        ContactInformation: { Name: 'Kari Nordmann', Phone: '+47 22 00 00 00', Email: 'kari@example.org' },
        Address: {
          City: 'Oslo',
          Country: 'Norway',
          AddressLine1: 'Kaigata 1',
          PostalCode: '0150',
          GeoCoordinates: { Latitude: 59.91, Longitude: 10.75 },
        },
      },
    },
    overrides,
  );
}

/** A valid vessel: Vessel, CaptainsName, a contact and a home port. */
export function buildVesselPayload(overrides?: Overrides<LocationPayload>): LocationPayload {
  return merge<LocationPayload>(
    {
      id: unique('VES'),
      Details: {
        TradePartner: { Id: unique('TP'), Name: 'Northern Fisheries', ConnectionType: 'SUPPLIER' },
        Name: 'Northern Star',
        CaptainsName: 'Ola Nordmann',
        Vessel: {
          VesselName: 'Northern Star',
          VesselFlagState: 'NO',
          IMONumber: 'IMO 9074729',
          VesselPublicRegistryLink: 'https://registry.example/vessel/9074729',
          VesselRegistration: 'N-100-B',
          UnloadingPort: 'Tromsø',
        },
        ContactInformation: { Name: 'Ola Nordmann' },
        Address: { City: 'Tromsø', Country: 'Norway', AddressLine1: 'Havnegata 5' },
      },
    },
    overrides,
  );
}

/** A valid product in kilograms, packed two to a case. */
export function buildProductPayload(overrides?: Overrides<ProductPayload>): ProductPayload {
  return merge<ProductPayload>(
    {
      Id: unique('SKU'),
      Details: {
        Name: 'Atlantic cod fillet',
        SimpleUnitOfMeasurement: 'KGM',
        UnitQuantity: 2,
        UnitDescriptor: 'Cases',
        SharingPolicy: 'Open',
        ProductIdentifierType: 'Lot',
        Gtin: '07038010000010',
        MasterData: [{ name: 'species', namespace: 'custom', value: 'Gadus morhua' }],
      },
    },
    overrides,
  );
}

/** `count` different CJK characters, in an order PostgreSQL cannot compress much (3 bytes each in UTF-8). */
export const cjk = (count: number): string =>
  Array.from({ length: count }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join('');
