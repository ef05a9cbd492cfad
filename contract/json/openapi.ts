import { operation } from '../openapi/operation';
import { notStarted, stillRunning } from '../events/openapi';
import { batchRejectedResponse } from '../events/schema';
import { commissionResponse, jsonEventsBody, transformResponse } from './schema';

const commission = {
  $type: 'commission',
  ExternalEventId: 'ERP-COMM-1001',
  Urn: '',
  Location: {
    Urn: 'urn:gdst:example.org:location:loc:acme.plant-1',
    TradePartnerUrn: 'urn:gdst:example.org:party:acme.0',
    Name: 'Boston processing plant',
    Gln: '0614141000012',
    Address: {
      City: 'Boston',
      Country: 'US',
      AddressLine1: '1 Fish Pier',
      GeoCoordinates: { Latitude: 42.35, Longitude: -71.04 },
    },
  },
  TradePartner: {
    Urn: 'urn:gdst:example.org:party:acme.0',
    TradePartnerId: null,
    Name: 'ACME Seafood',
    Pgln: '0614141000005',
    ConnectionType: 'SELF',
  },
  PurchaseOrder: null,
  InvoiceNumber: 'INV-77',
  BizStep: 'urn:epcglobal:cbv:bizstep:commissioning',
  ReadPoint: null,
  Disposition: 'urn:epcglobal:cbv:disp:active',
  EventTime: '2024-03-01T10:00:00-05:00',
  EventTimeZone: '-05:00',
  RecordTime: '2024-03-01T15:05:00Z',
  CustomProperties: [{ Name: 'harvestDate', Namespace: 'gdst', Value: '2024-02-28', PropertyLocation: 'ILMD' }],
  CertificationList: [
    {
      CertificationType: 'urn:gdst:certType:harvestCoC',
      CertificationStandard: 'MSC',
      CertificationAgency: 'MSC',
      CertificationValue: 'Certified',
      CertificationIdentification: 'MSC-C-1234',
    },
  ],
  VesselCatchInformation: null,
  ProductInstances: [
    {
      Quantity: 100,
      LotSerial: 'LOT-2024-001',
      Urn: 'urn:gdst:example.org:product:lot:class:acme.cod.LOT-2024-001',
      UOM: 'KGM',
      Gtin: '07038010000010',
      TradePartnerName: 'ACME Seafood',
      ParentProduct: {
        Urn: 'urn:gdst:example.org:product:class:acme.cod',
        Name: 'Atlantic cod fillet',
        SimpleUnitOfMeasurement: 'KGM',
        SharingPolicy: 'Open',
        ProductIdentifierType: 'Lot',
        ProductMasterData: [
          {
            Name: 'speciesForFisheryStatisticsPurposesName',
            Namespace: 'cbvmda',
            Value: 'Gadus morhua',
            ElementId: 'cbvmda:speciesForFisheryStatisticsPurposesName',
          },
        ],
      },
    },
  ],
};

const description = [
  'Events named by URNs (the URN-based event shape), run through the same pipeline as POST /Integration/Events and answered when it is done.',
  'Every URN (Location, TradePartner, ParentProduct) the account knows, by URN or by an external id equal to it, is reused and reported `Skipped`; a new one is created from the inline fields, keeps the URN sent, and is reported `Created`.',
  'UOM: quantities are in the product’s SimpleUnitOfMeasurement; a unit code must be that unit, a number is ignored.',
  'BizStep and Disposition: a GS1 CBV 2.0 value or a custom URN.',
  'A batch with at least one commission answers the commission shape (its `events` lists every event, transforms included); a batch of transforms only answers `{result: "Success"}` (with `warnings` when its events lack GDST Key Data Elements, as on the events routes).',
  'All or nothing: any failure is a 400 listing each event’s problem, and nothing is stored.',
].join(' ');

export const jsonOperations = [
  operation({
    method: 'post',
    path: '/Integration/JSON',
    summary: 'Submit URN-based commission and transform events',
    description,
    tags: ['Events'],
    requestBody: { schema: jsonEventsBody, example: { Events: [commission] } },
    responses: {
      200: {
        description:
          'Every event was stored. The commission shape when the batch holds a commission, else the transform shape.',
        schema: { anyOf: [commissionResponse, transformResponse] },
        example: {
          message: '1 event created.',
          result: {
            products: [
              {
                status: 'Created',
                id: '3c1d9e7a-2b4f-4a8e-9d61-7f0e5b2c8a93',
                name: 'Atlantic cod fillet',
                urn: 'urn:gdst:example.org:product:class:acme.cod',
                gtin: '07038010000010',
              },
            ],
            locations: [
              {
                status: 'Created',
                id: '5e2a1c0b-7d3f-4e9a-8b6c-1f0e2d3c4b5a',
                name: 'Boston processing plant',
                urn: 'urn:gdst:example.org:location:loc:acme.plant-1',
                gln: '0614141000012',
                geoCoordinates: { latitude: 42.35, longitude: -71.04 },
              },
            ],
            tradePartners: [
              {
                status: 'Skipped',
                id: '9a8b7c6d-5e4f-4a3b-2c1d-0e9f8a7b6c5d',
                name: 'ACME Seafood',
                urn: 'urn:gdst:example.org:party:acme.0',
                pgln: '0614141000005',
              },
            ],
            events: [
              {
                type: 'Commission',
                eventDate: '2024-03-01T15:00:00+00:00',
                productInstances: [
                  {
                    quantity: 100,
                    lotSerial: 'LOT-2024-001',
                    status: 'Created',
                    id: '3c1d9e7a-2b4f-4a8e-9d61-7f0e5b2c8a93',
                    name: 'Atlantic cod fillet',
                    urn: 'urn:gdst:example.org:product:lot:class:acme.cod.LOT-2024-001',
                  },
                ],
                status: 'Created',
                id: '0f1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f',
                name: 'ERP-COMM-1001',
                urn: 'urn:uuid:0f1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f',
              },
            ],
          },
          errors: [],
        },
      },
      400: {
        description:
          'The batch was rejected and nothing was stored: a malformed event, an unknown URN without the data to create it, a BizStep/Disposition/UOM not accepted, a transform input larger than the available quantity (InsufficientInventory), or an ExternalEventId the account has already (DuplicateEventId).',
        schema: batchRejectedResponse,
        example: {
          message: 'The batch was rejected: 1 error; nothing was stored.',
          result: [],
          errors: [
            {
              index: 0,
              eventId: 'ERP-COMM-1001',
              code: 'DuplicateEventId',
              field: 'ExternalEventId',
              message: 'An event with id ERP-COMM-1001 already exists in this account.',
            },
          ],
        },
      },
      202: stillRunning,
      503: notStarted,
    },
  }),
];
