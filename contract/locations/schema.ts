/**
 * The location endpoints' answers, what presenter.ts produces; what a request may carry is
 * domain/schemas/locations.ts.
 */
import { closed, closedObject } from '../openapi/schema';
import { connectionType } from '../../domain/schemas/locations';
import { pageBodySchema } from '../paging';
import { answeredEnum, batchResults, fourKeyBody } from '../master-data/schema';
import { nullableText } from '../../domain/schemas/text';

const addressResponse = {
  type: ['object', 'null'],
  description: 'Address (for a vessel: its home port); null when none was stored. Absent fields are null.',
  ...closed({
    city: nullableText('City.', 'Oslo'),
    state: nullableText('State or region.'),
    country: nullableText('Country.', 'Norway'),
    addressLine1: nullableText('First address line.', 'Kaigata 1'),
    addressLine2: nullableText('Second address line.'),
    postalCode: nullableText('Postal code.', '0150'),
    geoCoordinates: {
      type: ['object', 'null'],
      description: 'Coordinates in degrees, as numbers; null when none were sent.',
      ...closed({ latitude: { type: 'number', example: 59.91 }, longitude: { type: 'number', example: 10.75 } }),
    },
    displayAddress: nullableText(
      'Formatted address: as sent, or composed from the other fields (or the coordinates).',
      'Kaigata 1, Oslo, 0150, Norway',
    ),
  }),
};

const contactResponse = {
  type: ['object', 'null'],
  description: 'Contact; null when none was sent (always present for a vessel).',
  ...closed({
    name: nullableText('Contact person.', 'Kari Nordmann'),
    phone: nullableText('Phone number.'),
    email: nullableText('Email address.'),
  }),
};

const vesselResponse = {
  type: ['object', 'null'],
  description: 'Vessel details; null for a location that is not a vessel. Fields not sent are null.',
  ...closed({
    vesselName: nullableText('Vessel name.', 'Northern Star'),
    vesselFlagState: nullableText('Flag state.', 'NO'),
    imoNumber: nullableText('IMO number.', 'IMO 9074729'),
    vesselSatelliteTrackingAuthority: nullableText('Satellite tracking authority.'),
    vesselPublicRegistryLink: nullableText('Public registry page of the vessel.'),
    vesselRegistration: nullableText('Registration number.'),
    unloadingPort: nullableText('Usual unloading port.'),
  }),
};

/** SPEC.md, "Location as returned by the list operation"; also GET /Integration/Locations/{id}. */
export const locationResponse = {
  type: 'object',
  description: 'A location or vessel of the account, with its trade partner.',
  ...closed({
    id: nullableText('The caller-chosen location id; null for a location created without one.', 'LOC-1'),
    urn: { type: 'string', description: 'Service-generated URN of the location; events refer to it.' },
    details: closedObject({
      tradePartner: {
        type: 'object',
        description: 'The organization the location belongs to.',
        ...closed({
          id: nullableText(
            'The caller-chosen trade partner id (TradePartner.Id); null for one created without it.',
            'TP-ACME',
          ),
          urn: { type: 'string', description: 'Service-generated URN of the trade partner.' },
          name: { type: 'string', description: 'Organization name.', example: 'Acme Seafood' },
          pgln: nullableText('Party GLN.'),
          connectionType: answeredEnum(connectionType),
          duns: nullableText('DUNS number of the organization.'),
        }),
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
      foodFacilityRegistrationNumber: nullableText('Food facility registration number; not settable through this API.'),
      locationType: nullableText('Location type; not settable through this API.'),
    }),
    updateIfExists: { type: 'boolean', description: 'Always false: a create never updates an existing location.' },
  }),
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
  ...closed({
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
      ...closed({
        type: { type: 'string', enum: ['Point'] },
        coordinates: {
          type: 'array',
          minItems: 2,
          maxItems: 2,
          items: { type: 'number' },
          description: '[longitude, latitude].',
          example: [10.75, 59.91],
        },
      }),
    },
    foodFacilityRegistrationNumber: nullableText('Food facility registration number.'),
    locationGroupId: { type: 'null', description: 'Always null.' },
    locationType: nullableText('Location type.'),
    locationGroup: { type: 'null', description: 'Always null.' },
    dataPolicyElements: { type: 'array', maxItems: 0, description: 'Always empty.' },
    ownerInfo: {
      type: 'object',
      description: 'The account that owns the location: the caller’s.',
      ...closed({ accountId: { type: 'string', format: 'uuid' }, accountName: { type: 'string' } }),
    },
  }),
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
