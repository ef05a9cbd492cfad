/**
 * One complete example per event type, shown in /openapi.json (`examples` of both event endpoints) and
 * in docs/events.md. Together they tell one story in one account, in this order: a catch is
 * commissioned on a vessel, shipped to the company's own plant and received there, filleted, the
 * fillets palletised, inspected, unpacked and partly written off. Posted in that order they are all
 * accepted (test/api/openapi.test.ts proves it), so each one is a request the service really takes.
 */
import type { EventTypeName } from '../../domain/events';

const self = { Id: 'TP-NORDIC', Name: 'Nordic Seafood AS', ConnectionType: 'SELF' } as const;

const vessel = {
  Id: 'LOC-VESSEL-1',
  Details: {
    TradePartner: self,
    Name: 'FV Havbris',
    Address: { City: 'Ålesund', Country: 'NO', AddressLine1: 'Skansekaia 2' },
    Vessel: { VesselName: 'Havbris', VesselFlagState: 'NO', IMONumber: 'IMO 9074729' },
  },
} as const;

const plant = {
  Id: 'LOC-PLANT-1',
  Details: {
    TradePartner: self,
    Name: 'Ålesund filleting plant',
    Gln: '7038010000010',
    Address: { City: 'Ålesund', Country: 'NO', AddressLine1: 'Breivika 14' },
  },
} as const;

const product = (Id: string, Name: string, SimpleUnitOfMeasurement: string, ProductIdentifierType: string) =>
  ({ Id, Details: { Name, SimpleUnitOfMeasurement, SharingPolicy: 'Open', ProductIdentifierType } }) as const;
const wholeCod = product('COD-WHOLE', 'Atlantic cod, whole', 'KGM', 'Lot');
const codFillet = product('COD-FILLET', 'Atlantic cod fillet, skin-on', 'KGM', 'Lot');
const pallet = product('PALLET', 'Pallet (SSCC)', 'EA', 'Serial');

/** Local time in Norway, where the story happens. */
const at = (EventTime: string) => ({ EventTime, EventTimeZone: '+01:00' });

const CATCH_LOT = 'LOT-2024-001';
const FILLET_LOT = 'LOT-2024-001-F';
const PALLET_ID = '370380100000000017';

/** Lines of the fillet lot, by the product's Id. */
const fillets = (Quantity: number) => [{ Quantity, LotSerial: FILLET_LOT, Product: { Id: codFillet.Id } }];

export const eventExamples: Record<EventTypeName, { summary: string; event: Record<string, unknown> }> = {
  commission: {
    summary: 'commission: 1,200 kg of cod caught on a vessel',
    event: {
      $type: 'commission',
      Id: 'EV-2024-0001',
      Location: vessel,
      ProductInstances: [{ Quantity: 1200, LotSerial: CATCH_LOT, Product: wholeCod }],
      PurchaseOrder: 'PO-7781',
      DocumentIds: ['DOC-CATCH-CERT-17'],
      ...at('2024-03-01T16:00:00'),
      CustomProperties: [
        { Name: 'catchArea', Namespace: 'gdst', Value: 'FAO 27' },
        { Name: 'fishingGearTypeCode', Namespace: 'gdst', Value: '03.12' },
      ],
      CertificationList: [
        {
          Type: 'urn:gdst:certType:harvestCoC',
          Standard: 'MSC',
          Agency: 'MSC',
          Value: 'MSC-C-12345',
          Identification: 'C-12345',
        },
        {
          Type: 'urn:gdst:certType:fishingAuth',
          Standard: 'NO-FD',
          Agency: 'Norwegian Directorate of Fisheries',
          Value: 'Licensed',
          Identification: 'NO-FL-2024-0931',
        },
      ],
    },
  },
  ship: {
    summary: 'ship: 1,000 kg of the catch from the vessel to the plant',
    event: {
      $type: 'ship',
      Id: 'EV-2024-0002',
      Location: { Id: vessel.Id },
      DestinationLocation: plant,
      ProductInstances: [{ Quantity: 1000, LotSerial: CATCH_LOT, Product: { Id: wholeCod.Id } }],
      InvoiceNumber: 'INV-2024-118',
      ...at('2024-03-02T07:00:00'),
    },
  },
  receive: {
    summary: 'receive: the 1,000 kg arrive at the plant',
    event: {
      $type: 'receive',
      Id: 'EV-2024-0003',
      Location: { Id: plant.Id },
      SourceLocation: { Id: vessel.Id },
      ProductInstances: [{ Quantity: 1000, LotSerial: CATCH_LOT, Product: { Id: wholeCod.Id } }],
      ...at('2024-03-02T09:30:00'),
    },
  },
  transform: {
    summary: 'transform: 1,000 kg of whole cod filleted into 420 kg of fillets',
    event: {
      $type: 'transform',
      Id: 'EV-2024-0004',
      Location: { Id: plant.Id },
      InputProducts: [{ Quantity: 1000, LotSerial: CATCH_LOT, Product: { Id: wholeCod.Id } }],
      OutputProducts: [{ Quantity: 420, LotSerial: FILLET_LOT, Product: codFillet }],
      ...at('2024-03-02T14:00:00'),
    },
  },
  aggregation: {
    summary: 'aggregation: the fillets packed onto a pallet',
    event: {
      $type: 'aggregation',
      Id: 'EV-2024-0005',
      Location: { Id: plant.Id },
      ParentLotSerial: PALLET_ID,
      Product: pallet,
      ChildProductInstances: fillets(420),
      ...at('2024-03-02T15:00:00'),
    },
  },
  observe: {
    summary: 'observe: a temperature check of the fillets',
    event: {
      $type: 'observe',
      Id: 'EV-2024-0006',
      Location: { Id: plant.Id },
      ProductInstances: fillets(420),
      ...at('2024-03-02T16:00:00'),
      CustomProperties: [{ Name: 'coreTemperatureCelsius', Namespace: 'urn:example:qa', Value: '1.5' }],
    },
  },
  disaggregation: {
    summary: 'disaggregation: the pallet unpacked',
    event: {
      $type: 'disaggregation',
      Id: 'EV-2024-0007',
      Location: { Id: plant.Id },
      ParentLotSerial: PALLET_ID,
      Product: { Id: pallet.Id },
      ChildProductInstances: fillets(420),
      ...at('2024-03-03T07:00:00'),
    },
  },
  decommission: {
    summary: 'decommission: 20 kg of fillets written off',
    event: {
      $type: 'decommission',
      Id: 'EV-2024-0008',
      Location: { Id: plant.Id },
      ProductInstances: fillets(20),
      ...at('2024-03-03T08:00:00'),
      ReferenceDocumentId: 'QA-2024-0042',
    },
  },
};

/** The order in which the examples are accepted one after another in a fresh account: eventExamples' own. */
export const EXAMPLE_ORDER = Object.keys(eventExamples) as readonly EventTypeName[];

/** OpenAPI `examples` of a media type: one named example per event type, each a whole request body. */
export const requestExamples = (): Record<string, { summary: string; value: { Events: Record<string, unknown>[] } }> =>
  Object.fromEntries(
    EXAMPLE_ORDER.map((type) => [
      type,
      { summary: eventExamples[type].summary, value: { Events: [eventExamples[type].event] } },
    ]),
  );
