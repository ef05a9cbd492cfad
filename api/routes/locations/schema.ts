/**
 * Request schemas of the location endpoints: the one source of truth for what a request may carry
 * (the OpenAPI document is generated from them). Rules JSON Schema cannot say (address or
 * coordinates, vessel rules, ids unique and new) are in domain/master-data.ts.
 */
import { DUNS_PATTERN } from '../../../domain/master-data';
import { pageBodySchema } from '../../paging';
import { batchResults, fourKeyBody } from '../master-data/schema';
import { withLimits } from '../../limits';
import { closed } from '../../unknown-fields';
import { text, nullableText } from '../../openapi/schema';

const duns = {
  type: 'string',
  pattern: DUNS_PATTERN,
  description: 'DUNS number: 9 or 13 digits.',
  example: '123456789',
} as const;

const connectionType = {
  type: 'string',
  enum: ['SELF', 'SUPPLIER', 'BUYER', 'OTHER'],
  description:
    "Relationship to the caller's account: SELF (own organization), SUPPLIER, BUYER, OTHER (both). Vessels: SELF, SUPPLIER or BUYER.",
  example: 'SUPPLIER',
} as const;

const tradePartnerProperties = {
  Id: text('Caller-chosen id of the organization; reused for each of its locations, never changed.', 'TP-ACME'),
  Name: text('Organization name; the same for every location of the trade partner.', 'Acme Seafood'),
  ConnectionType: connectionType,
  Duns: duns,
  Pgln: text('Party GLN of the organization.'),
} as const;

const geoCoordinates = {
  type: 'object',
  description: 'Coordinates of the place (for a vessel: of its home port, never its live position).',
  required: ['Latitude', 'Longitude'],
  properties: {
    Latitude: { type: 'number', minimum: -90, maximum: 90, description: 'Degrees north, -90 to 90.', example: 59.91 },
    Longitude: {
      type: 'number',
      minimum: -180,
      maximum: 180,
      description: 'Degrees east, -180 to 180.',
      example: 10.75,
    },
  },
} as const;

export const address = {
  type: 'object',
  description:
    'Physical address, or a vessel’s home port. City, Country and AddressLine1 are required unless GeoCoordinates are given.',
  properties: {
    City: text('City.', 'Oslo'),
    State: text('State or region.'),
    Country: text('Country.', 'Norway'),
    AddressLine1: text('First address line.', 'Kaigata 1'),
    AddressLine2: text('Second address line.'),
    PostalCode: text('Postal code.', '0150'),
    GeoCoordinates: geoCoordinates,
    DisplayAddress: text('Formatted address; composed from the other fields when not sent.'),
  },
} as const;

export const contactProperties = {
  Name: text('Contact person.', 'Kari Nordmann'),
  Phone: text('Phone number.'),
  Email: text('Email address.'),
} as const;

export const vessel = {
  type: 'object',
  description: 'Makes the location a vessel. Every field is optional.',
  properties: {
    VesselName: text('Vessel name (recommended).', 'Northern Star'),
    VesselFlagState: text('Flag state.', 'NO'),
    IMONumber: text('IMO number.', 'IMO 9074729'),
    VesselSatelliteTrackingAuthority: text('Satellite tracking authority.'),
    VesselPublicRegistryLink: {
      type: 'string',
      format: 'url',
      description: 'Public registry page of the vessel (a URL).',
      example: 'https://registry.example/vessel/9074729',
    },
    VesselRegistration: text('Registration number.'),
    UnloadingPort: text('Usual unloading port.'),
  },
} as const;

const idProperties = {
  id: text('Caller-chosen location id, unique in the account, never changed. `Id` is accepted too.', 'LOC-1'),
  Id: text('Alternative spelling of `id`.'),
} as const;

const createDetails = {
  type: 'object',
  required: ['TradePartner', 'Name', 'Address'],
  properties: {
    TradePartner: {
      type: 'object',
      description: 'Creates the trade partner when its Id is new to the account; identifies it otherwise.',
      required: ['Id', 'Name', 'ConnectionType'],
      properties: tradePartnerProperties,
    },
    Name: text('Location name.', 'Oslo plant'),
    Gln: text('Global Location Number.', '7038010000010'),
    Extension: text('Additional identifier.'),
    DunsPlus4: text('DUNS+4.'),
    Duns: duns,
    CaptainsName: text('Vessel captain (vessels only).'),
    Vessel: vessel,
    ContactInformation: {
      type: 'object',
      description: 'Contact; required for vessels.',
      required: ['Name'],
      properties: contactProperties,
    },
    Address: address,
  },
} as const;

const createLocation = {
  type: 'object',
  description: 'A location or vessel to create. Send the id as `id` or `Id`.',
  required: ['Details'],
  properties: {
    ...idProperties,
    updateIfExists: {
      type: 'boolean',
      description:
        'Accepted as SPEC.md’s payloads carry it; a create never updates: an id the account already has is refused either way.',
      example: false,
    },
    Details: createDetails,
  },
} as const;

/** Closed objects: a property not listed here is refused, naming the field (api/unknown-fields.ts). */
export const createLocationsSchema = closed(
  withLimits({
    type: 'object',
    description:
      'POST /Integration/Locations: one or more locations or vessels, stored all or nothing. A property not listed is refused.',
    required: ['Locations'],
    properties: {
      Locations: { type: 'array', minItems: 1, items: createLocation, description: 'The locations to create.' },
    },
  } as const),
);

/** The field as it was, its description saying so (the accepted values are the same: the type is F's). */
const unchangeable = <F extends { description: string }>(field: F): F => ({
  ...field,
  description: `${field.description} Not changed by an update: accepted only with its stored value.`,
});

/**
 * SPEC.md's updatable fields, and the other fields of its Location shape (so a location can be sent
 * back as created), which must then carry their stored values; any other property is refused.
 */
const updateDetails = {
  type: 'object',
  description: 'The fields to change; absent fields keep their stored values.',
  properties: {
    TradePartner: {
      type: 'object',
      description: 'Identifies the location’s trade partner (Id never changes); Name and ConnectionType may change.',
      required: ['Id'],
      properties: {
        Id: tradePartnerProperties.Id,
        Name: tradePartnerProperties.Name,
        ConnectionType: connectionType,
        Duns: unchangeable(tradePartnerProperties.Duns),
        Pgln: unchangeable(tradePartnerProperties.Pgln),
      },
    },
    Name: createDetails.properties.Name,
    Gln: createDetails.properties.Gln,
    Extension: createDetails.properties.Extension,
    DunsPlus4: unchangeable(createDetails.properties.DunsPlus4),
    Duns: unchangeable(createDetails.properties.Duns),
    CaptainsName: createDetails.properties.CaptainsName,
    Vessel: vessel,
    ContactInformation: { type: 'object', description: 'Contact fields to change.', properties: contactProperties },
    Address: {
      ...address,
      description:
        'Address fields to change (a vessel’s home port); the result must still have City, Country and AddressLine1, or GeoCoordinates.',
    },
  },
} as const;

const updateLocation = {
  type: 'object',
  description: 'The location to change, by its id.',
  required: ['Details'],
  properties: { ...idProperties, Details: updateDetails },
} as const;

export const updateLocationsSchema = closed(
  withLimits({
    type: 'object',
    description:
      'PUT /Integration/Location: either `Locations` (a list) or `Location` (one object). A property not listed is refused.',
    properties: {
      Locations: {
        type: 'array',
        minItems: 1,
        items: updateLocation,
        description: 'Locations to change; answered with {id, status} each.',
      },
      Location: updateLocation,
    },
  } as const),
);

/* ---- Response bodies: what presenter.ts produces. ---- */

const addressResponse = {
  type: ['object', 'null'],
  description: 'Address (for a vessel: its home port); null when none was stored. Absent fields are null.',
  required: [
    'city',
    'state',
    'country',
    'addressLine1',
    'addressLine2',
    'postalCode',
    'geoCoordinates',
    'displayAddress',
  ],
  properties: {
    city: nullableText('City.', 'Oslo'),
    state: nullableText('State or region.'),
    country: nullableText('Country.', 'Norway'),
    addressLine1: nullableText('First address line.', 'Kaigata 1'),
    addressLine2: nullableText('Second address line.'),
    postalCode: nullableText('Postal code.', '0150'),
    geoCoordinates: {
      type: ['object', 'null'],
      description: 'Coordinates in degrees, as numbers; null when none were sent.',
      required: ['latitude', 'longitude'],
      properties: { latitude: { type: 'number', example: 59.91 }, longitude: { type: 'number', example: 10.75 } },
      additionalProperties: false,
    },
    displayAddress: nullableText(
      'Formatted address: as sent, or composed from the other fields (or the coordinates).',
      'Kaigata 1, Oslo, 0150, Norway',
    ),
  },
  additionalProperties: false,
};

const contactResponse = {
  type: ['object', 'null'],
  description: 'Contact; null when none was sent (always present for a vessel).',
  required: ['name', 'phone', 'email'],
  properties: {
    name: nullableText('Contact person.', 'Kari Nordmann'),
    phone: nullableText('Phone number.'),
    email: nullableText('Email address.'),
  },
  additionalProperties: false,
};

const vesselResponse = {
  type: ['object', 'null'],
  description: 'Vessel details; null for a location that is not a vessel. Fields not sent are null.',
  required: [
    'vesselName',
    'vesselFlagState',
    'imoNumber',
    'vesselSatelliteTrackingAuthority',
    'vesselPublicRegistryLink',
    'vesselRegistration',
    'unloadingPort',
  ],
  properties: {
    vesselName: nullableText('Vessel name.', 'Northern Star'),
    vesselFlagState: nullableText('Flag state.', 'NO'),
    imoNumber: nullableText('IMO number.', 'IMO 9074729'),
    vesselSatelliteTrackingAuthority: nullableText('Satellite tracking authority.'),
    vesselPublicRegistryLink: nullableText('Public registry page of the vessel.'),
    vesselRegistration: nullableText('Registration number.'),
    unloadingPort: nullableText('Usual unloading port.'),
  },
  additionalProperties: false,
};

const storedConnectionType = { type: 'string', enum: connectionType.enum, description: connectionType.description };

/** SPEC.md, "Location as returned by the list operation"; also GET /Integration/Locations/{id}. */
export const locationResponse = {
  type: 'object',
  description: 'A location or vessel of the account, with its trade partner.',
  required: ['id', 'urn', 'details', 'updateIfExists'],
  properties: {
    id: nullableText('The caller-chosen location id; null for a location created without one.', 'LOC-1'),
    urn: { type: 'string', description: 'Service-generated URN of the location; events refer to it.' },
    details: {
      type: 'object',
      required: [
        'tradePartner',
        'name',
        'gln',
        'dunsPlus4',
        'externalIdentifier',
        'extension',
        'captainsName',
        'address',
        'contact',
        'vessel',
        'foodFacilityRegistrationNumber',
        'locationType',
      ],
      properties: {
        tradePartner: {
          type: 'object',
          description: 'The organization the location belongs to.',
          required: ['id', 'urn', 'name', 'pgln', 'connectionType', 'duns'],
          properties: {
            id: nullableText(
              'The caller-chosen trade partner id (TradePartner.Id); null for one created without it.',
              'TP-ACME',
            ),
            urn: { type: 'string', description: 'Service-generated URN of the trade partner.' },
            name: { type: 'string', description: 'Organization name.', example: 'Acme Seafood' },
            pgln: nullableText('Party GLN.'),
            connectionType: storedConnectionType,
            duns: nullableText('DUNS number of the organization.'),
          },
          additionalProperties: false,
        },
        name: { type: 'string', description: 'Location name.', example: 'Oslo plant' },
        gln: nullableText('Global Location Number.', '7038010000010'),
        dunsPlus4: nullableText('DUNS+4.'),
        externalIdentifier: nullableText('The caller-chosen location id again (same as `id`).', 'LOC-1'),
        extension: nullableText('Additional identifier.'),
        captainsName: nullableText('Vessel captain (vessels only).'),
        address: addressResponse,
        contact: contactResponse,
        vessel: vesselResponse,
        foodFacilityRegistrationNumber: nullableText(
          'Food facility registration number; not settable through this API.',
        ),
        locationType: nullableText('Location type; not settable through this API.'),
      },
      additionalProperties: false,
    },
    updateIfExists: { type: 'boolean', description: 'Always false: a create never updates an existing location.' },
  },
  additionalProperties: false,
};

export const locationPageResponse = pageBodySchema(
  locationResponse,
  'One page of the account’s locations and vessels.',
);

/** SPEC.md, "Location as returned by the update operation"; fields the service has no notion of are null or empty. */
const updatedLocationResponse = {
  type: 'object',
  description:
    'The updated location (single-object form). Fields this service has no notion of are always null, false or empty.',
  required: [
    'id',
    'accountId',
    'tradePartnerId',
    'networkStatus',
    'tradePartnerName',
    'tradePartnerUrn',
    'name',
    'gln',
    'duns',
    'externalIdentifier',
    'extension',
    'captainsName',
    'urn',
    'hasActiveInventory',
    'address',
    'contact',
    'vessel',
    'wholechainId',
    'sharedWith',
    'createdTime',
    'isDefault',
    'geoJson',
    'foodFacilityRegistrationNumber',
    'locationGroupId',
    'locationType',
    'locationGroup',
    'dataPolicyElements',
    'ownerInfo',
  ],
  properties: {
    id: nullableText('The caller-chosen location id.', 'LOC-1'),
    accountId: { type: 'string', format: 'uuid', description: 'Service id of the owning account.' },
    tradePartnerId: nullableText('The caller-chosen trade partner id.', 'TP-ACME'),
    networkStatus: { type: 'null', description: 'Always null.' },
    tradePartnerName: { type: 'string', description: 'Trade partner name (after the update).' },
    tradePartnerUrn: { type: 'string', description: 'Service-generated URN of the trade partner.' },
    name: { type: 'string', description: 'Location name.' },
    gln: nullableText('Global Location Number.'),
    duns: nullableText('DUNS number of the location.'),
    externalIdentifier: nullableText('The caller-chosen location id again.'),
    extension: nullableText('Additional identifier.'),
    captainsName: nullableText('Vessel captain (vessels only).'),
    urn: { type: 'string', description: 'Service-generated URN of the location.' },
    hasActiveInventory: {
      type: 'boolean',
      description: 'Whether any product has a positive available quantity at this location.',
    },
    address: addressResponse,
    contact: contactResponse,
    vessel: vesselResponse,
    wholechainId: { type: 'null', description: 'Always null.' },
    sharedWith: { type: 'array', maxItems: 0, description: 'Always empty: locations are not shared between accounts.' },
    createdTime: { type: 'string', format: 'date-time', description: 'When the location was created.' },
    isDefault: { type: 'boolean', description: 'Always false.' },
    geoJson: {
      type: ['object', 'null'],
      description: 'The address coordinates as a GeoJSON Point (longitude first, RFC 7946); null without coordinates.',
      required: ['type', 'coordinates'],
      properties: {
        type: { type: 'string', enum: ['Point'] },
        coordinates: {
          type: 'array',
          minItems: 2,
          maxItems: 2,
          items: { type: 'number' },
          description: '[longitude, latitude].',
          example: [10.75, 59.91],
        },
      },
      additionalProperties: false,
    },
    foodFacilityRegistrationNumber: nullableText('Food facility registration number.'),
    locationGroupId: { type: 'null', description: 'Always null.' },
    locationType: nullableText('Location type.'),
    locationGroup: { type: 'null', description: 'Always null.' },
    dataPolicyElements: { type: 'array', maxItems: 0, description: 'Always empty.' },
    ownerInfo: {
      type: 'object',
      description: 'The account that owns the location: the caller’s.',
      required: ['accountId', 'accountName'],
      properties: { accountId: { type: 'string', format: 'uuid' }, accountName: { type: 'string' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

export const createLocationsResponse = fourKeyBody(batchResults('Created', 'location'), 'All locations were created.');

export const updateLocationsResponse = fourKeyBody(
  {
    oneOf: [updatedLocationResponse, batchResults('Updated', 'location')],
    description:
      'For the single-object form (`Location`), the updated location; for the list form (`Locations`), one `{id, status}` per element.',
  },
  'Every location was updated.',
);
