import { uid } from './events';

/** URN-based events (SPEC.md "Event: URN-based shape") with new URNs unless told otherwise. */
export const urnOf = (kind: string): string => `urn:gdst:test.example:${kind}:${uid(kind)}`;

export const parentProduct = (urn: string, name = 'Atlantic cod') => ({
  Urn: urn,
  Name: name,
  SimpleUnitOfMeasurement: 'KGM',
  SharingPolicy: 'Open',
  ProductIdentifierType: 'Lot',
  Gtin: '07038010000010',
  ProductMasterData: [{ Name: 'species', Namespace: 'cbvmda', Value: 'Gadus morhua', ElementId: 'cbvmda:species' }],
});

export const jsonInstance = (productUrn: string, lot: string, quantity: number, uom: string | number = 'KGM') => ({
  Quantity: quantity,
  LotSerial: lot,
  Urn: `${productUrn}.lot.${lot}`,
  UOM: uom,
  Gtin: '07038010000010',
  ParentProduct: parentProduct(productUrn),
  TradePartnerName: 'ACME Seafood',
  IdentifierType: 'Lot',
});

export interface JsonEventOptions {
  id?: string;
  locationUrn: string;
  partnerUrn: string;
  time?: string;
}

const base = (type: 'commission' | 'transform', options: JsonEventOptions) => ({
  $type: type,
  ExternalEventId: options.id ?? uid(`EXT-${type}`),
  Urn: '',
  Location: {
    Urn: options.locationUrn,
    TradePartnerUrn: options.partnerUrn,
    Name: 'Boston plant',
    Gln: '0614141000012',
    Address: {
      City: 'Boston',
      Country: 'US',
      AddressLine1: '1 Fish Pier',
      GeoCoordinates: { Latitude: 42.35, Longitude: -71.04 },
    },
  },
  TradePartner: {
    Urn: options.partnerUrn,
    TradePartnerId: null,
    Name: 'ACME Seafood',
    Pgln: '0614141000005',
    ConnectionType: 'SELF',
  },
  PurchaseOrder: null,
  InvoiceNumber: 'INV-1',
  BizStep: type === 'commission' ? 'urn:epcglobal:cbv:bizstep:commissioning' : 'urn:epcglobal:cbv:bizstep:repackaging',
  ReadPoint: null,
  Disposition: 'urn:epcglobal:cbv:disp:active',
  EventTime: options.time ?? '2024-03-01T10:00:00-05:00',
  EventTimeZone: '-05:00',
  RecordTime: '2024-03-01T15:05:00Z',
  CustomProperties: [{ Name: 'harvestDate', Namespace: 'gdst', Value: '2024-02-28', PropertyLocation: 'ILMD' }],
  CertificationList: [
    {
      CertificationType: 'urn:gdst:certType:harvestCoC',
      CertificationStandard: 'MSC',
      CertificationAgency: 'MSC',
      CertificationValue: 'Certified',
      CertificationIdentification: 'MSC-1',
    },
  ],
  VesselCatchInformation: null,
});

export const jsonCommission = (options: JsonEventOptions, ...instances: object[]) => ({
  ...base('commission', options),
  ProductInstances: instances,
});

export const jsonTransform = (options: JsonEventOptions, inputs: object[], outputs: object[]) => ({
  ...base('transform', options),
  InputProducts: inputs,
  OutputProducts: outputs,
});
