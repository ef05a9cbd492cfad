import { createAccount, type TestAccount } from '../factories/accounts';
import { uploadDocument } from '../factories/documents';
import { commission, instance, location, product, uid } from '../factories/events';
import { jsonCommission, jsonInstance, jsonTransform, parentProduct, urnOf } from '../factories/json-events';
import { buildLocationPayload, buildProductPayload } from '../factories/master-data';
import { rowCounts, sql } from '../helpers/db';
import { client } from '../helpers/http';

/**
 * Every JSON body under /Integration takes the properties SPEC.md shows, spelled as it spells them,
 * and refuses any other with a 400 that names the field and the name meant, storing nothing. The
 * accepted names are listed once, in the request schemas (contract/<resource>/schema.ts).
 */

/** Every table a request under /Integration writes to: a refused request leaves them all as they were. */
const counts = (accountId: string) =>
  rowCounts(accountId, [
    'locations',
    'trade_partners',
    'products',
    'events',
    'batches',
    'inventory_records',
    'ledger_entries',
    'event_documents',
  ]);

let account: TestAccount;
let api: ReturnType<typeof client>;

beforeEach(async () => {
  account = await createAccount('fields');
  api = client(account.key);
});

/* ---- SPEC.md's payloads, every property it shows ---- */

/** SPEC.md "Location (create/update payload element)": every Details, TradePartner, ContactInformation and Address field. */
const specLocation = (id: string) => ({
  id,
  updateIfExists: false,
  Details: {
    TradePartner: { Id: uid('TP'), Name: 'Acme Seafood', ConnectionType: 'SUPPLIER' as const, Duns: '123456789' },
    Name: 'Oslo plant',
    Gln: '7038010000010',
    Extension: '0',
    DunsPlus4: '1234567890123',
    Duns: '123456789',
    ContactInformation: { Name: 'Kari Nordmann', Phone: '+47 22 00 00 00', Email: 'kari@example.org' },
    Address: {
      City: 'Oslo',
      State: 'Oslo',
      Country: 'Norway',
      AddressLine1: 'Kaigata 1',
      AddressLine2: 'Dock 3',
      PostalCode: '0150',
      GeoCoordinates: { Latitude: 59.91, Longitude: 10.75 },
      DisplayAddress: 'Kaigata 1, 0150 Oslo, Norway',
    },
  },
});

/** SPEC.md "Vessel": every Vessel field, CaptainsName, and the id spelled `Id`. */
const specVessel = (id: string) => ({
  Id: id,
  Details: {
    TradePartner: { Id: uid('TP'), Name: 'Northern Fisheries', ConnectionType: 'SELF' as const },
    Name: 'Northern Star',
    CaptainsName: 'Ola Nordmann',
    Vessel: {
      VesselName: 'Northern Star',
      VesselFlagState: 'NO',
      IMONumber: 'IMO 9074729',
      VesselSatelliteTrackingAuthority: 'Fiskeridirektoratet',
      VesselPublicRegistryLink: 'https://registry.example/vessel/9074729',
      VesselRegistration: 'N-100-B',
      UnloadingPort: 'Tromsø',
    },
    ContactInformation: { Name: 'Ola Nordmann' },
    Address: { City: 'Tromsø', Country: 'Norway', AddressLine1: 'Havnegata 5' },
  },
});

/** SPEC.md "Product (create payload element)": every Details field, MasterData entries included. */
const specProduct = (id: string) => ({
  Id: id,
  Details: {
    Name: 'Atlantic cod fillet',
    SimpleUnitOfMeasurement: 'KGM',
    UnitQuantity: 2,
    UnitDescriptor: 'Cases' as const,
    SharingPolicy: 'Open' as const,
    ProductIdentifierType: 'Lot' as const,
    Gtin: '07038010000010',
    Plu: '4011',
    MasterData: [{ name: 'species', namespace: 'custom', value: 'Gadus morhua' }],
  },
});

/** SPEC.md "Event: batch-style shape": a commission with every field, its product in the event spelling (GTIN, PLU). */
const specCommission = (documentId: string) => ({
  $type: 'commission',
  Id: uid('EVT'),
  Location: { Id: uid('LOC'), Details: specLocation('unused').Details },
  ProductInstances: [
    {
      Quantity: 12.5,
      LotSerial: uid('LOT'),
      Product: {
        Id: uid('SKU'),
        Details: {
          ...specProduct('unused').Details,
          Gtin: undefined,
          Plu: undefined,
          GTIN: '07038010000010',
          PLU: '4011',
        },
      },
    },
  ],
  PurchaseOrder: 'PO-1',
  InvoiceNumber: 'INV-1',
  DocumentIds: [documentId],
  ReferenceDocumentId: 'TLC-REF-1',
  EventTime: '2024-03-01T10:00:00',
  EventTimeZone: '-05:00',
  CustomProperties: [{ Name: 'catchArea', Namespace: 'gdst', Value: 'FAO 27' }],
  CertificationList: [
    {
      Type: 'urn:gdst:certType:harvestCoC',
      Standard: 'MSC',
      Agency: 'MSC',
      Value: 'Certified',
      Identification: 'MSC-C-1',
    },
  ],
});

/** JSON.stringify drops `undefined`: the spread-and-blank above leaves the key out of the body. */
const asSent = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('every property SPEC.md shows is accepted, spelled as SPEC.md spells it', () => {
  it('POST /Integration/Locations: a location (id, updateIfExists, DunsPlus4, every Address field) and a vessel (Id, every Vessel field)', async () => {
    const response = await api.post('/Integration/Locations', {
      Locations: [specLocation(uid('LOC')), specVessel(uid('VES'))],
    });
    expect(response.status).toBe(200);
    expect(response.body.result).toHaveLength(2);
  });

  it('PUT /Integration/Location: every updatable field, in both forms, and a location sent back as created', async () => {
    const created = specLocation(uid('LOC'));
    const vessel = specVessel(uid('VES'));
    expect((await api.post('/Integration/Locations', { Locations: [created, vessel] })).status).toBe(200);
    const { updateIfExists, ...asCreated } = created;
    expect(updateIfExists).toBe(false);
    expect((await api.put('/Integration/Location', { Location: asCreated })).status).toBe(200);
    const changes = {
      TradePartner: { Id: created.Details.TradePartner.Id, Name: 'Acme Seafood AS', ConnectionType: 'BUYER' },
      Name: 'Oslo plant 2',
      Gln: '7038010000027',
      Extension: '1',
      ContactInformation: { Name: 'Per', Phone: '+47 1', Email: 'per@example.org' },
      Address: { ...created.Details.Address, City: 'Bergen' },
    };
    expect((await api.put('/Integration/Location', { Locations: [{ id: created.id, Details: changes }] })).status).toBe(
      200,
    );
    const vesselChanges = {
      CaptainsName: 'Kari',
      Vessel: { ...vessel.Details.Vessel, VesselName: 'Southern Star' },
      Address: { City: 'Bodø' },
    };
    expect(
      (await api.put('/Integration/Location', { Locations: [{ Id: vessel.Id, Details: vesselChanges }] })).status,
    ).toBe(200);
    expect((await api.get(`/Integration/Locations/${created.id}`)).body.details).toMatchObject({
      name: 'Oslo plant 2',
      address: { city: 'Bergen' },
    });
  });

  it('POST and PUT /Integration/Products: every Details field', async () => {
    const payload = specProduct(uid('SKU'));
    expect((await api.post('/Integration/Products', { Products: [payload] })).status).toBe(200);
    expect(
      (
        await api.put('/Integration/Products', {
          Products: [{ ...payload, Details: { ...payload.Details, Name: 'Cod loin' } }],
        })
      ).status,
    ).toBe(200);
  });

  it('POST /Integration/Events and /async: a commission with every field (GTIN/PLU, DocumentIds, CertificationList), and every type’s own fields', async () => {
    const document = await uploadDocument(account.key, uid('DOC'));
    const event = asSent(specCommission(document.documentId));
    const response = await api.post('/Integration/Events', { Events: [event] });
    expect(response.status).toBe(200);
    expect(response.body.result[0].documentsNotAttached).toBeNull();
    const line = event.ProductInstances[0];
    const lot = line.LotSerial;
    const at = (type: string, fields: object) => ({
      $type: type,
      Id: uid(type),
      Location: { Id: event.Location.Id },
      EventTime: '2024-03-02T10:00:00Z',
      EventTimeZone: '+00:00',
      ...fields,
    });
    const cod = { Id: line.Product.Id };
    const others = [
      at('observe', { ProductInstances: [{ Quantity: 1, LotSerial: lot, Product: cod }] }),
      at('ship', {
        ProductInstances: [{ Quantity: 1, LotSerial: lot, Product: cod }],
        DestinationLocation: location(uid('CUST')),
      }),
      at('receive', {
        ProductInstances: [{ Quantity: 1, LotSerial: 'R1', Product: cod }],
        SourceLocation: { id: uid('SUP'), Details: location('x').Details },
      }),
      at('transform', {
        InputProducts: [{ Quantity: 1, LotSerial: lot, Product: cod }],
        OutputProducts: [instance('COD-LOIN', 'T1', 1)],
      }),
      at('aggregation', {
        ParentLotSerial: 'PAL-1',
        Product: product('PALLET'),
        ChildProductInstances: [{ Quantity: 1, LotSerial: lot, Product: cod }],
      }),
      at('disaggregation', {
        ParentLotSerial: 'PAL-1',
        Product: { Id: 'PALLET' },
        ChildProductInstances: [{ Quantity: 1, LotSerial: lot, Product: cod }],
      }),
      at('decommission', { ProductInstances: [{ Quantity: 1, LotSerial: lot, Product: cod }] }),
    ];
    const accepted = await api.post('/Integration/Events/async', { Events: others });
    expect(accepted.status).toBe(202);
    let status = accepted.body.status;
    for (let i = 0; i < 100 && (status === 'Accepted' || status === 'Running'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await api.get(accepted.body.statusUrl)).body.status;
    }
    expect(status).toBe('Completed');
  });

  it('POST /Integration/JSON: a commission and a transform with every field of the URN-based shape', async () => {
    const at = { locationUrn: urnOf('location'), partnerUrn: urnOf('party') };
    const productUrn = urnOf('product');
    const lot = uid('LOT');
    const full = { ...parentProduct(productUrn), UnitQuantity: 2, UnitDescriptor: 'Cases' };
    const event = jsonCommission(at, { ...jsonInstance(productUrn, lot, 10), ParentProduct: full });
    const address = {
      City: 'Boston',
      State: 'MA',
      Country: 'US',
      AddressLine1: '1 Fish Pier',
      AddressLine2: 'Dock 2',
      PostalCode: '02210',
      GeoCoordinates: { Latitude: 42.35, Longitude: -71.04 },
    };
    const commissioned = await api.post('/Integration/JSON', {
      Events: [{ ...event, Location: { ...event.Location, Address: address } }],
    });
    expect(commissioned.status).toBe(200);
    const transform = jsonTransform(
      at,
      [{ ...jsonInstance(productUrn, lot, 4, 4) }],
      [jsonInstance(urnOf('product'), uid('LOT'), 4)],
    );
    expect((await api.post('/Integration/JSON', { Events: [transform] })).status).toBe(200);
  });
});

/* ---- Refusals: a 400 in each endpoint's error body, naming the field and the name meant; nothing stored ---- */

describe('a property nobody knows is refused with the field and the fix named, and nothing is stored', () => {
  const fourKey = (validations: object[]) => ({ message: expect.any(String), result: [], errors: [], validations });

  it('POST /Integration/Locations with GLN for Gln', async () => {
    const before = await counts(account.id);
    const payload = buildLocationPayload();
    const { Gln, ...details } = payload.Details;
    const response = await api.post('/Integration/Locations', {
      Locations: [{ ...payload, Details: { ...details, GLN: Gln } }],
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      fourKey([
        {
          index: 0,
          id: payload.id,
          field: 'Locations[0].Details.GLN',
          message: 'Locations[0].Details.GLN is not a field; did you mean Gln?',
        },
      ]),
    );
    expect(await counts(account.id)).toEqual(before);
  });

  it('POST /Integration/Locations with Zip for PostalCode: no close name, so the Address fields are listed', async () => {
    const before = await counts(account.id);
    const payload = buildLocationPayload();
    const { PostalCode, ...address } = payload.Details.Address!;
    const response = await api.post('/Integration/Locations', {
      Locations: [
        buildLocationPayload(),
        { ...payload, Details: { ...payload.Details, Address: { ...address, Zip: PostalCode } } },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      fourKey([
        {
          index: 1,
          id: payload.id,
          field: 'Locations[1].Details.Address.Zip',
          message:
            'Locations[1].Details.Address.Zip is not a field; the fields of Locations[1].Details.Address are City, State, Country, AddressLine1, AddressLine2, PostalCode, GeoCoordinates, DisplayAddress.',
        },
      ]),
    );
    expect(await counts(account.id)).toEqual(before);
  });

  it('PUT /Integration/Location with a typo, or a field an update cannot change sent with another value, changes nothing', async () => {
    const payload = buildLocationPayload();
    expect((await api.post('/Integration/Locations', { Locations: [payload] })).status).toBe(200);
    const typo = await api.put('/Integration/Location', {
      Location: { id: payload.id, Details: { Name: 'Changed', Adress: { City: 'Bergen' } } },
    });
    expect(typo.status).toBe(400);
    expect(typo.body).toEqual(
      fourKey([
        {
          index: 0,
          id: payload.id,
          field: 'Location.Details.Adress',
          message: 'Location.Details.Adress is not a field; did you mean Address?',
        },
      ]),
    );
    const duns = await api.put('/Integration/Location', {
      Locations: [{ id: payload.id, Details: { Name: 'Changed', Duns: '987654321' } }],
    });
    expect(duns.status).toBe(400);
    expect(duns.body).toEqual(
      fourKey([
        {
          index: 0,
          id: payload.id,
          field: 'Locations[0].Details.Duns',
          message:
            'Locations[0].Details.Duns cannot be changed by an update (stored: "123456789", sent: "987654321"); send the stored value or leave it out.',
        },
      ]),
    );
    expect((await api.get(`/Integration/Locations/${payload.id}`)).body.details).toMatchObject({
      name: 'Oslo plant',
      address: { city: 'Oslo' },
    });
  });

  it('POST and PUT /Integration/Products with the event spelling GTIN, and a typo inside MasterData', async () => {
    const before = await counts(account.id);
    const payload = buildProductPayload();
    const response = await api.post('/Integration/Products', {
      Products: [
        {
          ...payload,
          Details: {
            ...payload.Details,
            GTIN: '07038010000010',
            MasterData: [{ name: 'species', namespace: 'custom', vaule: 'cod' }],
          },
        },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      {
        index: 0,
        id: payload.Id,
        field: 'Products[0].Details.GTIN',
        message: 'Products[0].Details.GTIN is not a field; did you mean Gtin?',
      },
      {
        index: 0,
        id: payload.Id,
        field: 'Products[0].Details.MasterData[0].value',
        message: 'Products[0].Details.MasterData[0].value is required.',
      },
      {
        index: 0,
        id: payload.Id,
        field: 'Products[0].Details.MasterData[0].vaule',
        message: 'Products[0].Details.MasterData[0].vaule is not a field; did you mean value?',
      },
    ]);
    expect(await counts(account.id)).toEqual(before);
    expect((await api.post('/Integration/Products', { Products: [payload] })).status).toBe(200);
    const update = await api.put('/Integration/Products', {
      Products: [{ Id: payload.Id, Details: { Name: 'Changed', SharingPolicys: 'Open' } }],
    });
    expect(update.status).toBe(400);
    expect(update.body.validations).toEqual([
      {
        index: 0,
        id: payload.Id,
        field: 'Products[0].Details.SharingPolicys',
        message: 'Products[0].Details.SharingPolicys is not a field; did you mean SharingPolicy?',
      },
    ]);
    expect((await api.get(`/Integration/Products/${payload.Id}`)).body.details.name).toBe('Atlantic cod fillet');
  });

  it.each(['/Integration/Events', '/Integration/Events/async'])(
    '%s with DocumentIDs for DocumentIds: refused, and the event id is still free',
    async (path) => {
      const document = await uploadDocument(account.key, uid('DOC'));
      const before = await counts(account.id);
      const { DocumentIds, ...event } = commission(
        { location: 'DOCK', time: '2024-03-01T10:00:00Z', documentIds: [document.documentId] },
        instance('COD', uid('LOT'), 10),
      );
      const response = await api.post(path, { Events: [{ ...event, DocumentIDs: DocumentIds }] });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        message: expect.any(String),
        result: [],
        errors: [
          {
            index: 0,
            eventId: event.Id,
            code: 'UnknownField',
            field: 'DocumentIDs',
            message: 'Events[0].DocumentIDs is not a field; did you mean DocumentIds?',
          },
        ],
      });
      expect(await counts(account.id)).toEqual(before);
      const fixed = await api.post('/Integration/Events', { Events: [{ ...event, DocumentIds }] });
      expect(fixed.status).toBe(200);
      expect(fixed.body.result[0].documentsNotAttached).toBeNull();
    },
  );

  it('POST /Integration/Events with a typo deep in a product instance, and a field of another event type', async () => {
    const before = await counts(account.id);
    const line = instance('COD', uid('LOT'), 10);
    const misspelt = { ...line.Product.Details!, Gtn: '07038010000010' };
    const event = commission(
      { location: 'DOCK', time: '2024-03-01T10:00:00Z' },
      { ...line, Product: { ...line.Product, Details: misspelt } },
    );
    const response = await api.post('/Integration/Events', {
      Events: [{ ...event, DestinationLocation: { Id: 'CUSTOMER' } }],
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      {
        index: 0,
        eventId: event.Id,
        code: 'UnknownField',
        field: 'ProductInstances[0].Product.Details.Gtn',
        message: 'Events[0].ProductInstances[0].Product.Details.Gtn is not a field; did you mean GTIN or Gtin?',
      },
      {
        index: 0,
        eventId: event.Id,
        code: 'UnknownField',
        field: 'DestinationLocation',
        message: expect.stringMatching(
          /^Events\[0\]\.DestinationLocation is not a field when \$type is commission; the fields it takes are \$type, Id, .*ProductInstances\.$/,
        ),
      },
    ]);
    expect(await counts(account.id)).toEqual(before);
  });

  it('POST /Integration/JSON with a typo in the location and in a ParentProduct', async () => {
    const before = await counts(account.id);
    const productUrn = urnOf('product');
    const event = jsonCommission(
      { locationUrn: urnOf('location'), partnerUrn: urnOf('party') },
      {
        ...jsonInstance(productUrn, uid('LOT'), 10),
        ParentProduct: { ...parentProduct(productUrn), GTIN: '07038010000010' },
      },
    );
    const response = await api.post('/Integration/JSON', {
      Events: [{ ...event, Location: { ...event.Location, Glnn: '0614141000012' } }],
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      message: expect.any(String),
      result: [],
      errors: [
        {
          index: 0,
          eventId: event.ExternalEventId,
          code: 'UnknownField',
          field: 'ProductInstances[0].ParentProduct.GTIN',
          message: 'Events[0].ProductInstances[0].ParentProduct.GTIN is not a field; did you mean Gtin?',
        },
        {
          index: 0,
          eventId: event.ExternalEventId,
          code: 'UnknownField',
          field: 'Location.Glnn',
          message: 'Events[0].Location.Glnn is not a field; did you mean Gln?',
        },
      ],
    });
    expect(await counts(account.id)).toEqual(before);
    const { rows } = await sql().query(
      'SELECT count(*)::int AS n FROM events WHERE account_id = $1 AND external_event_id = $2',
      [account.id, event.ExternalEventId],
    );
    expect(rows[0].n).toBe(0);
  });

  it('an unknown property at the top of a body is named too', async () => {
    const response = await api.post('/Integration/Events', {
      Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('COD', uid('LOT'), 1))],
      events: [],
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      {
        index: null,
        eventId: null,
        code: 'UnknownField',
        field: 'events',
        message: 'events is not a field; did you mean Events?',
      },
    ]);
  });
});
