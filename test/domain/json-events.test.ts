import {
  jsonFieldOf,
  referencedUrns,
  translateJsonEvents,
  quantityInProductUnit,
  type JsonEvent,
  type KnownEntities,
} from '../../domain/json-events';

const PRODUCT = 'urn:gdst:x:product:class:cod';
const LOCATION = 'urn:gdst:x:location:loc:plant';
const PARTY = 'urn:gdst:x:party:acme';

const parent = {
  Urn: PRODUCT,
  Name: 'Cod',
  SimpleUnitOfMeasurement: 'kg',
  SharingPolicy: 'Open',
  ProductIdentifierType: 'Lot',
  Gtin: '07038010000010',
} as const;

const commission = (overrides: Partial<JsonEvent> = {}): JsonEvent => ({
  $type: 'commission',
  ExternalEventId: 'E-1',
  Location: {
    Urn: LOCATION,
    TradePartnerUrn: PARTY,
    Name: 'Plant',
    Gln: '0614141000012',
    Address: { GeoCoordinates: { Latitude: 1, Longitude: 2 } },
  },
  TradePartner: { Urn: PARTY, TradePartnerId: null, Name: 'ACME', Pgln: '0614', ConnectionType: 'SELF' },
  EventTime: '2024-03-01T10:00:00-05:00',
  BizStep: 'urn:epcglobal:cbv:bizstep:commissioning',
  CertificationList: [{ CertificationType: 'urn:gdst:certType:harvestCoC' }],
  ProductInstances: [{ Quantity: 5, LotSerial: 'L1', Urn: 'urn:x:lot:L1', UOM: 'KGM', ParentProduct: { ...parent } }],
  ...overrides,
});

const nothingKnown: KnownEntities = { products: new Map(), locations: new Map(), tradePartners: new Map() };

describe('URN-based events → batch-style payloads', () => {
  it('new URNs carry Details built from the inline data, with the URN as id and URN (Created)', () => {
    const { events, issues, products, locations, tradePartners } = translateJsonEvents([commission()], nothingKnown);
    expect(issues).toEqual([]);
    expect(events[0]).toMatchObject({
      $type: 'commission',
      Id: 'E-1',
      EventTimeZone: '-05:00', // from EventTime's offset when EventTimeZone is absent
      Location: {
        Id: LOCATION,
        Urn: LOCATION,
        Details: {
          Name: 'Plant',
          Gln: '0614141000012',
          TradePartner: { Id: PARTY, Urn: PARTY, Name: 'ACME', ConnectionType: 'SELF', Pgln: '0614' },
        },
      },
      ProductInstances: [
        {
          Quantity: 5,
          LotSerial: 'L1',
          Urn: 'urn:x:lot:L1',
          Product: {
            Id: PRODUCT,
            Urn: PRODUCT,
            Details: {
              Name: 'Cod',
              SimpleUnitOfMeasurement: 'kg',
              SharingPolicy: 'Open',
              ProductIdentifierType: 'Lot',
              GTIN: '07038010000010',
            },
          },
        },
      ],
      BizStep: 'urn:epcglobal:cbv:bizstep:commissioning',
      CertificationList: [{ CertificationType: 'urn:gdst:certType:harvestCoC' }],
    });
    expect(events[0].ProductInstances![0]).not.toHaveProperty('ParentProduct');
    expect(products).toEqual([{ urn: PRODUCT, externalId: PRODUCT, status: 'Created' }]);
    expect(locations).toEqual([{ urn: LOCATION, externalId: LOCATION, status: 'Created' }]);
    expect(tradePartners).toEqual([{ urn: PARTY, externalId: PARTY, status: 'Created' }]);
  });

  it('a new trade partner with a TradePartnerId is stored under that id', () => {
    const event = commission({
      TradePartner: { Urn: PARTY, TradePartnerId: 'TP-9', Name: 'ACME', ConnectionType: 'SELF' },
    });
    expect(translateJsonEvents([event], nothingKnown).tradePartners).toEqual([
      { urn: PARTY, externalId: 'TP-9', status: 'Created' },
    ]);
  });

  it('known URNs become their external ids (Skipped)', () => {
    const known: KnownEntities = {
      products: new Map([[PRODUCT, { externalId: 'SKU-1', unit: 'KGM' }]]),
      locations: new Map([[LOCATION, { externalId: 'LOC-1' }]]),
      tradePartners: new Map([[PARTY, { externalId: 'TP-1', name: 'ACME', connectionType: 'SELF' as const }]]),
    };
    const { events, issues, products, locations } = translateJsonEvents([commission()], known);
    expect(issues).toEqual([]);
    expect(events[0].Location).toEqual({ Id: 'LOC-1' });
    expect(events[0].ProductInstances![0].Product).toEqual({ Id: 'SKU-1' });
    expect(products).toEqual([{ urn: PRODUCT, externalId: 'SKU-1', status: 'Skipped' }]);
    expect(locations).toEqual([{ urn: LOCATION, externalId: 'LOC-1', status: 'Skipped' }]);
  });

  it('an unknown URN without enough inline data is an issue naming it', () => {
    const event = commission({
      Location: { Urn: LOCATION },
      ProductInstances: [{ Quantity: 1, LotSerial: 'L', ParentProduct: { Urn: PRODUCT, Name: 'Cod' } }],
    });
    const { issues } = translateJsonEvents([event], nothingKnown);
    expect(issues).toEqual([
      expect.objectContaining({
        index: 0,
        eventId: 'E-1',
        code: 'UnknownLocation',
        field: 'Location',
        message: expect.stringContaining(LOCATION),
      }),
      expect.objectContaining({
        index: 0,
        code: 'UnknownProduct',
        field: 'ProductInstances[0].ParentProduct',
        message: expect.stringContaining(PRODUCT),
      }),
    ]);
  });

  it('inline data sent with another mention of the URN is enough', () => {
    const bare = commission({
      ExternalEventId: 'E-2',
      ProductInstances: [{ Quantity: 1, LotSerial: 'L', ParentProduct: { Urn: PRODUCT } }],
    });
    expect(translateJsonEvents([bare, commission()], nothingKnown).issues).toEqual([]);
  });

  it('checks times, vocabularies and units', () => {
    const event = commission({
      EventTime: '2024-03-01T10:00:00',
      BizStep: 'shippin',
      Disposition: 'not a uri',
      ProductInstances: [{ Quantity: 1, LotSerial: 'L', UOM: 'CS', ParentProduct: { ...parent } }],
    });
    const fields = translateJsonEvents([event], nothingKnown).issues.map((i) => [i.code, i.field]);
    expect(fields).toEqual([
      ['Required', 'EventTimeZone'],
      ['InvalidValue', 'BizStep'],
      ['InvalidValue', 'Disposition'],
      ['InvalidValue', 'ProductInstances[0].UOM'],
    ]);
  });

  it('referencedUrns lists each URN once, trade partners with their TradePartnerId', () => {
    const event = commission({ TradePartner: { Urn: PARTY, TradePartnerId: 'TP-9' } });
    expect(referencedUrns([event, event])).toEqual({
      products: [PRODUCT],
      locations: [LOCATION],
      tradePartners: [{ urn: PARTY, id: 'TP-9' }],
    });
  });
});

describe('UOM', () => {
  const inKgm = (UOM: string | number | null, Quantity = 5) => quantityInProductUnit({ UOM, Quantity }, 'KGM');
  it('a number is not a unit: ignored', () => expect(inKgm(10)).toEqual({ quantity: 5 }));
  it('absent or empty: the product unit', () => {
    expect(inKgm(null)).toEqual({ quantity: 5 });
    expect(inKgm('')).toEqual({ quantity: 5 });
  });
  it('an alias of the product unit is accepted', () => expect(inKgm('kg')).toEqual({ quantity: 5 }));
  it('a unit of its kind converts, exactly', () => expect(inKgm('lbs', 22)).toEqual({ quantity: 9.97903214 }));
  it('a unit of another kind is refused: it would be misread', () =>
    expect(inKgm('case')).toEqual({
      problem: 'UOM "case" (CS) is not of the kind of the product\'s unit KGM: send the quantity in KGM.',
    }));
  it('an unknown unit is refused', () =>
    expect(inKgm('bushel')).toEqual({ problem: expect.stringContaining('Unknown unit') }));
});

describe('pipeline fields renamed to the request', () => {
  it.each([
    ['Id', 'ExternalEventId'],
    ['Location.Id', 'Location.Urn'],
    ['Location.Details.TradePartner.Name', 'TradePartner.Name'],
    ['Location.Details.Name', 'Location.Name'],
    ['InputProducts[0].Quantity', 'InputProducts[0].Quantity'],
    ['ProductInstances[1].Product.Id', 'ProductInstances[1].ParentProduct.Urn'],
    [
      'ProductInstances[0].Product.Details.SimpleUnitOfMeasurement',
      'ProductInstances[0].ParentProduct.SimpleUnitOfMeasurement',
    ],
  ])('%s → %s', (field, expected) => expect(jsonFieldOf(field)).toBe(expected));
});

describe('event-level trade partners', () => {
  it('a new TradePartner that owns no new location is refused (nothing would create it)', () => {
    const known: KnownEntities = { ...nothingKnown, locations: new Map([[LOCATION, { externalId: 'LOC-1' }]]) };
    const { issues, tradePartners } = translateJsonEvents([commission()], known);
    expect(issues).toEqual([
      expect.objectContaining({
        index: 0,
        code: 'InvalidValue',
        field: 'TradePartner.Urn',
        message: expect.stringContaining(PARTY),
      }),
    ]);
    expect(tradePartners).toEqual([]);
  });
});
