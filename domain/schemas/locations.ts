/**
 * The locations' payloads: what creating or updating a location may carry, whether it comes as POST or
 * PUT /Integration/Locations or as an import's rows (the OpenAPI document shows these same schemas).
 * Rules JSON Schema cannot say (address or coordinates, vessel rules, ids unique and new) are in
 * domain/master-data.ts.
 */
import { withLimits } from './limits';
import { closed } from './unknown-fields';
import { idText, text } from './text';

/** SPEC.md: a DUNS number has 9 or 13 digits. */
export const DUNS_PATTERN = '^([0-9]{9}|[0-9]{13})$';

const duns = {
  type: 'string',
  pattern: DUNS_PATTERN,
  description: 'DUNS number: 9 or 13 digits.',
  example: '123456789',
} as const;

export const connectionType = {
  type: 'string',
  enum: ['SELF', 'SUPPLIER', 'BUYER', 'OTHER'],
  description:
    "Relationship to the caller's account: SELF (own organization), SUPPLIER, BUYER, OTHER (both). Vessels: SELF, SUPPLIER or BUYER.",
  example: 'SUPPLIER',
} as const;

const tradePartnerProperties = {
  Id: idText('Caller-chosen id of the organization; reused for each of its locations, never changed.', 'TP-ACME'),
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
  id: idText('Caller-chosen location id, unique in the account, never changed. `Id` is accepted too.', 'LOC-1'),
  Id: idText('Alternative spelling of `id`.'),
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
    Gln: idText('Global Location Number.', '7038010000010'),
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
        'Accepted because the /Integration interface’s payloads carry it; a create never updates: an id the account already has is refused either way.',
      example: false,
    },
    Details: createDetails,
  },
} as const;

/** Closed objects: a property not listed here is refused, naming the field (domain/schemas/unknown-fields.ts). */
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
