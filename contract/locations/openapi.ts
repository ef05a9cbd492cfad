import { taggedOperation } from '../openapi/operation';
import { pageQueryErrorResponse, pageQuerySchema, onePageExample } from '../paging';
import { problemResponse } from '../openapi/components';
import { masterDataRejectionSchema, rejection } from '../master-data/schema';
import { createLocationsSchema, updateLocationsSchema } from '../../domain/schemas/locations';
import { createLocationsResponse, locationPageResponse, locationResponse, updateLocationsResponse } from './schema';

const operation = taggedOperation('Locations');

const ACCOUNT_ID = '6f0c1f9e-3c39-4e52-9d55-1b7f5c2a9e41';

const acme = { Id: 'TP-ACME', Name: 'Acme Seafood', ConnectionType: 'SUPPLIER' };

const plant = {
  id: 'LOC-OSLO-1',
  Details: {
    TradePartner: acme,
    Name: 'Oslo plant',
    Gln: '7038010000010',
    Duns: '123456789',
    ContactInformation: { Name: 'Kari Nordmann', Email: 'kari@acme.example' },
    Address: { City: 'Oslo', Country: 'Norway', AddressLine1: 'Kaigata 1', PostalCode: '0150' },
  },
};

const vessel = {
  id: 'VESSEL-NS',
  Details: {
    TradePartner: acme,
    Name: 'Northern Star',
    CaptainsName: 'Ola Nordmann',
    Vessel: {
      VesselName: 'Northern Star',
      VesselFlagState: 'NO',
      IMONumber: 'IMO 9074729',
      VesselPublicRegistryLink: 'https://registry.example/vessel/9074729',
    },
    ContactInformation: { Name: 'Ola Nordmann', Phone: '+47 400 00 000' },
    Address: {
      City: 'Ålesund',
      Country: 'Norway',
      AddressLine1: 'Havnegata 5',
      GeoCoordinates: { Latitude: 62.47, Longitude: 6.15 },
    },
  },
};

const plantAddress = {
  city: 'Oslo',
  state: null,
  country: 'Norway',
  addressLine1: 'Kaigata 1',
  addressLine2: null,
  postalCode: '0150',
  geoCoordinates: null,
  displayAddress: 'Kaigata 1, Oslo, 0150, Norway',
};

const listedPlant = {
  id: 'LOC-OSLO-1',
  urn: 'urn:gdst:traceability.local:location:loc:acme.LOC-OSLO-1',
  details: {
    tradePartner: {
      id: 'TP-ACME',
      urn: 'urn:gdst:traceability.local:party:acme.TP-ACME',
      name: 'Acme Seafood',
      pgln: null,
      connectionType: 'SUPPLIER',
      duns: null,
    },
    name: 'Oslo plant',
    gln: '7038010000010',
    dunsPlus4: null,
    externalIdentifier: 'LOC-OSLO-1',
    extension: null,
    captainsName: null,
    address: plantAddress,
    contact: { name: 'Kari Nordmann', phone: null, email: 'kari@acme.example' },
    vessel: null,
    foodFacilityRegistrationNumber: null,
    locationType: null,
  },
  updateIfExists: false,
};

export const locationsOperations = [
  operation({
    method: 'post',
    path: '/Integration/Locations',
    summary: 'Create locations or vessels',
    description:
      'Creates one or more locations (a vessel is a location with a `Vessel` object), and their trade partners when `TradePartner.Id` is new to the account. ' +
      'All or nothing: when any element is invalid or conflicts with stored data, nothing is stored and the answer is a 400 naming each problem.',
    requestBody: { schema: createLocationsSchema, example: { Locations: [plant, vessel] } },
    responses: {
      200: {
        description: 'Every location was created; `result` has their service ids, in request order.',
        schema: createLocationsResponse,
        example: {
          message: '2 location(s) created.',
          result: [
            { id: '0b9f6c1e-8a51-4c39-9a5e-2f1d7c3b8e10', status: 'Created' },
            { id: '5d2e8f4a-1c7b-4e93-b0a6-9c8d7e6f5a41', status: 'Created' },
          ],
          errors: [],
          validations: [],
        },
      },
      400: {
        description:
          'Nothing was stored. `validations`: the request breaks a schema or rule (a missing field, Duns not 9 or 13 digits, an id sent twice, no address nor coordinates, vessel rules). ' +
          '`errors`: it contradicts stored data (a location id that exists, a trade partner id with another name).',
        schema: masterDataRejectionSchema,
        example: rejection('The request has 1 validation error(s); nothing was stored.', {
          validations: [
            {
              index: 0,
              id: 'LOC-OSLO-1',
              field: 'Locations[0].Details.Duns',
              message: 'Locations[0].Details.Duns must contain 9 or 13 digits.',
            },
          ],
        }),
      },
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Locations',
    summary: 'List locations and vessels',
    description: 'The account’s locations and vessels, in creation order, one page at a time.',
    query: pageQuerySchema,
    responses: {
      200: {
        description: 'One page of locations.',
        schema: locationPageResponse,
        example: onePageExample(listedPlant),
      },
      400: pageQueryErrorResponse,
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Locations/{id}',
    summary: 'Read one location or vessel',
    pathParams: {
      type: 'object',
      properties: {
        id: { type: 'string', minLength: 1, description: 'The caller-chosen location id.', example: 'LOC-OSLO-1' },
      },
    },
    responses: {
      200: {
        description: 'The location, shaped as an element of the list.',
        schema: locationResponse,
        example: listedPlant,
      },
      404: problemResponse(
        'The account has no location with this id (another account’s locations are not visible).',
        'unknown-location',
        { detail: 'Location LOC-9 was not found.' },
      ),
    },
  }),
  operation({
    method: 'put',
    path: '/Integration/Location',
    summary: 'Update locations, their trade partners or vessels',
    description:
      'Send either `Locations` (a list) or `Location` (one object), each identified by its existing `id`; absent fields keep their stored values. ' +
      'Updatable: trade partner Name and ConnectionType (its Id identifies it and never changes); location Name, Gln, Extension, Address, ContactInformation; ' +
      'for vessels also CaptainsName and the Vessel fields. All or nothing: when any element fails, nothing is changed.',
    requestBody: {
      schema: updateLocationsSchema,
      example: {
        Location: { id: 'LOC-OSLO-1', Details: { Name: 'Oslo plant (north)', Address: { AddressLine1: 'Kaigata 3' } } },
      },
    },
    responses: {
      200: {
        description:
          'Every location was updated. The single-object form answers the updated location; the list form one `{id, status}` per element.',
        schema: updateLocationsResponse,
        example: {
          message: 'Location updated.',
          result: {
            id: 'LOC-OSLO-1',
            accountId: ACCOUNT_ID,
            tradePartnerId: 'TP-ACME',
            networkStatus: null,
            tradePartnerName: 'Acme Seafood',
            tradePartnerUrn: 'urn:gdst:traceability.local:party:acme.TP-ACME',
            name: 'Oslo plant (north)',
            gln: '7038010000010',
            duns: '123456789',
            externalIdentifier: 'LOC-OSLO-1',
            extension: null,
            captainsName: null,
            urn: 'urn:gdst:traceability.local:location:loc:acme.LOC-OSLO-1',
            hasActiveInventory: false,
            address: { ...plantAddress, addressLine1: 'Kaigata 3', displayAddress: 'Kaigata 3, Oslo, 0150, Norway' },
            contact: { name: 'Kari Nordmann', phone: null, email: 'kari@acme.example' },
            vessel: null,
            wholechainId: null,
            sharedWith: [],
            createdTime: '2025-03-01T09:30:00.000Z',
            isDefault: false,
            geoJson: null,
            foodFacilityRegistrationNumber: null,
            locationGroupId: null,
            locationType: null,
            locationGroup: null,
            dataPolicyElements: [],
            ownerInfo: { accountId: ACCOUNT_ID, accountName: 'acme' },
          },
          errors: [],
          validations: [],
        },
      },
      400: {
        description:
          'Nothing was changed. `validations`: the request breaks a schema or rule (neither or both of Locations and Location, an id missing or sent twice, an address left without City, Country and AddressLine1 or coordinates, vessel fields on a standard location). ' +
          '`errors`: a trade partner Id other than the location’s.',
        schema: masterDataRejectionSchema,
        example: rejection('The request has 1 validation error(s); nothing was stored.', {
          validations: [
            {
              index: null,
              id: null,
              field: 'Locations',
              message: 'Send either Locations (a list) or Location (one object).',
            },
          ],
        }),
      },
      404: {
        description:
          'At least one id names no location of the account; nothing was changed. `errors` lists each unknown id (and the other problems found, if any).',
        schema: masterDataRejectionSchema,
        example: rejection('The update has 1 error(s); nothing was changed.', {
          errors: [{ index: 0, id: 'LOC-9', field: 'Location.id', message: 'Location LOC-9 was not found.' }],
        }),
      },
    },
  }),
];
