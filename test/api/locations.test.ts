import { createAccount, type TestAccount } from '../factories/accounts';
import { buildLocationPayload, buildVesselPayload, cjk } from '../factories/master-data';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';

const countLocations = async (accountId: string): Promise<number> =>
  Number((await sql().query('SELECT count(*) FROM locations WHERE account_id = $1', [accountId])).rows[0].count);
const countPartners = async (accountId: string): Promise<number> =>
  Number((await sql().query('SELECT count(*) FROM trade_partners WHERE account_id = $1', [accountId])).rows[0].count);

const fourKeyError = {
  message: expect.any(String),
  result: [],
  errors: expect.any(Array),
  validations: expect.any(Array),
};

let account: TestAccount;
let api: ReturnType<typeof client>;

beforeEach(async () => {
  account = await createAccount('loc');
  api = client(account.key);
});

describe('POST /Integration/Locations', () => {
  it('creates several locations and answers the four keys with service ids', async () => {
    const locations = [buildLocationPayload(), buildLocationPayload()];
    const response = await api.post('/Integration/Locations', { Locations: locations });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: expect.any(String),
      result: [
        { id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'Created' },
        { id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'Created' },
      ],
      errors: [],
      validations: [],
    });
    const { rows } = await sql().query(
      'SELECT id, external_id, urn FROM locations WHERE account_id = $1 ORDER BY seq',
      [account.id],
    );
    expect(rows.map((row) => row.id)).toEqual(response.body.result.map((entry: { id: string }) => entry.id));
    expect(rows[0].urn).toBe(`urn:gdst:traceability.local:location:loc:${account.name}.${locations[0].id}`);
  });

  it('accepts the location id as `Id` too', async () => {
    const { id, ...rest } = buildLocationPayload();
    const response = await api.post('/Integration/Locations', { Locations: [{ ...rest, Id: id }] });
    expect(response.status).toBe(200);
    expect((await api.get(`/Integration/Locations/${id}`)).body.id).toBe(id);
  });

  it('creates a trade partner once and reuses it for the next location with the same TradePartner.Id', async () => {
    const first = buildLocationPayload();
    const second = buildLocationPayload({ Details: { TradePartner: first.Details.TradePartner } });
    expect((await api.post('/Integration/Locations', { Locations: [first] })).status).toBe(200);
    expect((await api.post('/Integration/Locations', { Locations: [second] })).status).toBe(200);
    expect(await countPartners(account.id)).toBe(1);
    const { rows } = await sql().query('SELECT DISTINCT trade_partner_id FROM locations WHERE account_id = $1', [
      account.id,
    ]);
    expect(rows).toHaveLength(1);
    const partner = (await sql().query('SELECT urn FROM trade_partners WHERE account_id = $1', [account.id])).rows[0];
    expect(partner.urn).toBe(`urn:gdst:traceability.local:party:${account.name}.${first.Details.TradePartner.Id}`);
  });

  it('refuses a different Name for an existing trade partner id, naming both names', async () => {
    const first = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [first] });
    const second = buildLocationPayload({
      Details: { TradePartner: { Id: first.Details.TradePartner.Id, Name: 'Other Org' } },
    });
    const response = await api.post('/Integration/Locations', { Locations: [second] });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ ...fourKeyError, validations: [] });
    expect(response.body.errors).toEqual([
      {
        index: 0,
        id: second.id,
        field: 'Locations[0].Details.TradePartner.Name',
        message: expect.stringContaining('"Acme Seafood"'),
      },
    ]);
    expect(response.body.errors[0].message).toContain('"Other Org"');
    expect(await countLocations(account.id)).toBe(1);
  });

  it('refuses two names for one new trade partner id within one request', async () => {
    const first = buildLocationPayload();
    const second = buildLocationPayload({
      Details: { TradePartner: { Id: first.Details.TradePartner.Id, Name: 'Other Org' } },
    });
    const response = await api.post('/Integration/Locations', { Locations: [first, second] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({ index: 1, field: 'Locations[1].Details.TradePartner.Name' }),
    ]);
    expect(await countPartners(account.id)).toBe(0);
  });

  it('refuses a Gln that is no GLN, naming it and saying why: 13 digits and the GS1 check digit', async () => {
    const before = await countLocations(account.id);
    const response = await api.post('/Integration/Locations', {
      Locations: [
        buildLocationPayload({ Details: { Gln: '12345' } }),
        buildLocationPayload({ Details: { Gln: '9521141000000' } }),
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({
        index: 0,
        field: 'Locations[0].Details.Gln',
        message: '12345 is not a GLN: a GLN is 13 digits.',
      }),
      expect.objectContaining({
        index: 1,
        field: 'Locations[1].Details.Gln',
        message: '9521141000000 is not a GLN: its check digit is 0, the GS1 check digit of 952114100000 is 7.',
      }),
    ]);
    expect(await countLocations(account.id)).toBe(before);

    const payload = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [payload] });
    const update = await api.put('/Integration/Location', {
      Location: { id: payload.id, Details: { Gln: '9521141000000' } },
    });
    expect(update.status).toBe(400);
    expect(update.body.validations).toEqual([expect.objectContaining({ field: 'Location.Details.Gln' })]);
  });

  it('creates a vessel with its captain and vessel fields', async () => {
    const vessel = buildVesselPayload();
    const response = await api.post('/Integration/Locations', { Locations: [vessel] });
    expect(response.status).toBe(200);
    const { rows } = await sql().query('SELECT captains_name, vessel, contact FROM locations WHERE account_id = $1', [
      account.id,
    ]);
    expect(rows[0].captains_name).toBe('Ola Nordmann');
    expect(rows[0].vessel).toMatchObject({
      vesselName: 'Northern Star',
      imoNumber: 'IMO 9074729',
      vesselPublicRegistryLink: 'https://registry.example/vessel/9074729',
    });
  });

  it('requires ContactInformation for a vessel', async () => {
    const response = await api.post('/Integration/Locations', {
      Locations: [buildVesselPayload({ Details: { ContactInformation: undefined } })],
    });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({ index: 0, field: 'Locations[0].Details.ContactInformation' }),
    ]);
  });

  it('allows only SELF, SUPPLIER and BUYER as a vessel ConnectionType', async () => {
    const response = await api.post('/Integration/Locations', {
      Locations: [buildVesselPayload({ Details: { TradePartner: { ConnectionType: 'OTHER' } } })],
    });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({
        field: 'Locations[0].Details.TradePartner.ConnectionType',
        message: expect.stringContaining('SELF, SUPPLIER, BUYER'),
      }),
    ]);
  });

  it.each([
    ['Details', { Details: undefined }, 'Locations[0].Details'],
    ['Details.Name', { Details: { Name: undefined } }, 'Locations[0].Details.Name'],
    ['Details.Address', { Details: { Address: undefined } }, 'Locations[0].Details.Address'],
    ['Details.TradePartner', { Details: { TradePartner: undefined } }, 'Locations[0].Details.TradePartner'],
    ['TradePartner.Id', { Details: { TradePartner: { Id: undefined } } }, 'Locations[0].Details.TradePartner.Id'],
    ['TradePartner.Name', { Details: { TradePartner: { Name: undefined } } }, 'Locations[0].Details.TradePartner.Name'],
    [
      'TradePartner.ConnectionType',
      { Details: { TradePartner: { ConnectionType: undefined } } },
      'Locations[0].Details.TradePartner.ConnectionType',
    ],
    [
      'ContactInformation.Name',
      { Details: { ContactInformation: { Name: undefined } } },
      'Locations[0].Details.ContactInformation.Name',
    ],
  ])('requires %s', async (_name, overrides, field) => {
    const payload = buildLocationPayload(overrides as Parameters<typeof buildLocationPayload>[0]);
    const response = await api.post('/Integration/Locations', { Locations: [payload] });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ ...fourKeyError, errors: [] });
    expect(response.body.validations).toContainEqual({
      index: 0,
      id: payload.id,
      field,
      message: `${field} is required.`,
    });
  });

  it('requires an id', async () => {
    const response = await api.post('/Integration/Locations', { Locations: [buildLocationPayload({ id: undefined })] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      { index: 0, id: null, field: 'Locations[0].id', message: 'Locations[0].id is required.' },
    ]);
  });

  // 1,000 characters of a CJK script are 3,000 bytes, past what the id's unique index (a GLN's index) takes: a 500 before.
  it.each([
    ['id', (id: string) => buildLocationPayload({ id }), 'Locations[0].id'],
    ['Id', (id: string) => ({ ...buildLocationPayload({ id: undefined }), Id: id }), 'Locations[0].Id'],
    [
      'TradePartner.Id',
      (id: string) => buildLocationPayload({ Details: { TradePartner: { Id: id } } }),
      'Locations[0].Details.TradePartner.Id',
    ],
    ['Gln', (gln: string) => buildLocationPayload({ Details: { Gln: gln } }), 'Locations[0].Details.Gln'],
  ])('refuses a %s longer than 200 characters as events do, naming it, and stores nothing', async (_, build, field) => {
    for (const id of ['L'.repeat(201), cjk(1000)]) {
      const response = await api.post('/Integration/Locations', { Locations: [build(id)] });
      expect(response.status).toBe(400);
      expect(response.body.validations).toEqual([
        expect.objectContaining({ index: 0, field, message: `${field} must NOT have more than 200 characters.` }),
      ]);
    }
    expect(await countLocations(account.id)).toBe(0);
    expect(await countPartners(account.id)).toBe(0);
  });

  it('checks ConnectionType against its enum', async () => {
    const payload = buildLocationPayload({ Details: { TradePartner: { ConnectionType: 'FRIEND' as 'SELF' } } });
    const response = await api.post('/Integration/Locations', { Locations: [payload] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({
        field: 'Locations[0].Details.TradePartner.ConnectionType',
        message: expect.stringContaining('SELF, SUPPLIER, BUYER, OTHER'),
      }),
    ]);
  });

  it.each([['12345678'], ['1234567890'], ['12345678A'], ['12345678901234']])(
    'refuses Duns %s (9 or 13 digits only)',
    async (duns) => {
      const response = await api.post('/Integration/Locations', {
        Locations: [buildLocationPayload({ Details: { Duns: duns } })],
      });
      expect(response.status).toBe(400);
      expect(response.body.validations).toEqual([
        expect.objectContaining({
          field: 'Locations[0].Details.Duns',
          message: 'Locations[0].Details.Duns must contain 9 or 13 digits.',
        }),
      ]);
    },
  );

  it('accepts a 13-digit Duns', async () => {
    expect(
      (
        await api.post('/Integration/Locations', {
          Locations: [buildLocationPayload({ Details: { Duns: '1234567890123' } })],
        })
      ).status,
    ).toBe(200);
  });

  it('requires City, Country and AddressLine1 when no GeoCoordinates are given', async () => {
    const payload = buildLocationPayload({
      Details: { Address: { GeoCoordinates: undefined, City: undefined, AddressLine1: undefined } },
    });
    const response = await api.post('/Integration/Locations', { Locations: [payload] });
    expect(response.status).toBe(400);
    expect(response.body.validations.map((v: { field: string }) => v.field)).toEqual([
      'Locations[0].Details.Address.City',
      'Locations[0].Details.Address.AddressLine1',
    ]);
  });

  it('accepts GeoCoordinates alone as the address', async () => {
    const payload = buildLocationPayload({ Details: { Address: undefined } });
    payload.Details.Address = { GeoCoordinates: { Latitude: -33.9, Longitude: 151.2 } };
    expect((await api.post('/Integration/Locations', { Locations: [payload] })).status).toBe(200);
    const listed = await api.get(`/Integration/Locations/${payload.id}`);
    expect(listed.body.details.address).toMatchObject({
      city: null,
      geoCoordinates: { latitude: -33.9, longitude: 151.2 },
    });
  });

  it.each([
    ['Latitude', 90.5],
    ['Latitude', -91],
    ['Longitude', 180.01],
    ['Longitude', -181],
  ])('refuses %s %d', async (name, value) => {
    const payload = buildLocationPayload();
    payload.Details.Address!.GeoCoordinates = { Latitude: 0, Longitude: 0, [name]: value };
    const response = await api.post('/Integration/Locations', { Locations: [payload] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({ field: `Locations[0].Details.Address.GeoCoordinates.${name}` }),
    ]);
  });

  it('requires VesselPublicRegistryLink to be a URL', async () => {
    const response = await api.post('/Integration/Locations', {
      Locations: [buildVesselPayload({ Details: { Vessel: { VesselPublicRegistryLink: 'not a link' } } })],
    });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({
        field: 'Locations[0].Details.Vessel.VesselPublicRegistryLink',
        message: expect.stringContaining('URL'),
      }),
    ]);
  });

  it('refuses a location id the account already has', async () => {
    const payload = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [payload] });
    const response = await api.post('/Integration/Locations', {
      Locations: [buildLocationPayload(), buildLocationPayload({ id: payload.id })],
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      {
        index: 1,
        id: payload.id,
        field: 'Locations[1].id',
        message: `Location id "${payload.id}" already exists in this account.`,
      },
    ]);
    expect(await countLocations(account.id)).toBe(1);
  });

  it('refuses the same id twice in one request', async () => {
    const payload = buildLocationPayload();
    const response = await api.post('/Integration/Locations', {
      Locations: [payload, buildLocationPayload({ id: payload.id })],
    });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({ index: 1, id: payload.id, field: 'Locations[1].id' }),
    ]);
    expect(await countLocations(account.id)).toBe(0);
  });

  it('lets another account use the same location id', async () => {
    const payload = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [payload] });
    const other = await createAccount('loc');
    expect((await client(other.key).post('/Integration/Locations', { Locations: [payload] })).status).toBe(200);
  });

  it('stores nothing when one element of a batch is invalid', async () => {
    const good = [buildLocationPayload(), buildVesselPayload()];
    const bad = buildLocationPayload({ Details: { Name: undefined } });
    const response = await api.post('/Integration/Locations', { Locations: [...good, bad] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      { index: 2, id: bad.id, field: 'Locations[2].Details.Name', message: 'Locations[2].Details.Name is required.' },
    ]);
    expect(await countLocations(account.id)).toBe(0);
    expect(await countPartners(account.id)).toBe(0);
  });

  it('stores nothing when a later element conflicts with stored data', async () => {
    const existing = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [existing] });
    const response = await api.post('/Integration/Locations', {
      Locations: [buildLocationPayload(), buildVesselPayload(), buildLocationPayload({ id: existing.id })],
    });
    expect(response.status).toBe(400);
    expect(await countLocations(account.id)).toBe(1);
    expect(await countPartners(account.id)).toBe(1);
  });

  it('refuses an empty list and a missing Locations', async () => {
    const empty = await api.post('/Integration/Locations', { Locations: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.validations).toEqual([
      { index: null, id: null, field: 'Locations', message: 'Locations must contain at least 1 element(s).' },
    ]);
    const missing = await api.post('/Integration/Locations', {});
    expect(missing.body.validations).toEqual([
      { index: null, id: null, field: 'Locations', message: 'Locations is required.' },
    ]);
  });
});

describe('GET /Integration/Locations', () => {
  it("answers SPEC.md's page shape with each location's details, in creation order", async () => {
    const standard = buildLocationPayload();
    const vessel = buildVesselPayload();
    await api.post('/Integration/Locations', { Locations: [standard, vessel] });
    const response = await api.get('/Integration/Locations');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      totalPages: 1,
      pageNumber: 1,
      pageSize: 20,
      totalItems: 2,
      results: expect.any(Array),
      hasNextPage: false,
      hasPreviousPage: false,
    });
    const partner = standard.Details.TradePartner;
    expect(response.body.results[0]).toEqual({
      id: standard.id,
      urn: `urn:gdst:traceability.local:location:loc:${account.name}.${standard.id}`,
      details: {
        tradePartner: {
          id: partner.Id,
          urn: `urn:gdst:traceability.local:party:${account.name}.${partner.Id}`,
          name: 'Acme Seafood',
          pgln: null,
          connectionType: 'SUPPLIER',
          duns: '123456789',
        },
        name: 'Oslo plant',
        gln: '7038010000010',
        dunsPlus4: null,
        externalIdentifier: standard.id,
        extension: null,
        captainsName: null,
        address: {
          city: 'Oslo',
          state: null,
          country: 'Norway',
          addressLine1: 'Kaigata 1',
          addressLine2: null,
          postalCode: '0150',
          geoCoordinates: { latitude: 59.91, longitude: 10.75 },
          displayAddress: 'Kaigata 1, Oslo, 0150, Norway',
        },
        contact: { name: 'Kari Nordmann', phone: '+47 22 00 00 00', email: 'kari@example.org' },
        vessel: null,
        foodFacilityRegistrationNumber: null,
        locationType: null,
      },
      updateIfExists: false,
    });
    expect(response.body.results[1]).toMatchObject({
      id: vessel.id,
      details: { captainsName: 'Ola Nordmann', vessel: { vesselName: 'Northern Star', unloadingPort: 'Tromsø' } },
    });
  });

  it('pages with PageNumber and PageSize', async () => {
    const locations = Array.from({ length: 5 }, () => buildLocationPayload());
    await api.post('/Integration/Locations', { Locations: locations });
    const second = await api.get('/Integration/Locations?PageNumber=2&PageSize=2');
    expect(second.body).toMatchObject({
      totalPages: 3,
      pageNumber: 2,
      pageSize: 2,
      totalItems: 5,
      hasNextPage: true,
      hasPreviousPage: true,
    });
    expect(second.body.results.map((r: { id: string }) => r.id)).toEqual([locations[2].id, locations[3].id]);
    const last = await api.get('/Integration/Locations?PageNumber=3&PageSize=2');
    expect(last.body).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(last.body.results).toHaveLength(1);
    const beyond = await api.get('/Integration/Locations?PageNumber=9&PageSize=2');
    expect(beyond.body).toMatchObject({ totalItems: 5, results: [] });
  });

  it('caps PageSize at 100', async () => {
    const response = await api.get('/Integration/Locations?PageSize=1000');
    expect(response.status).toBe(200);
    expect(response.body.pageSize).toBe(100);
  });

  it.each(['PageNumber=0', 'PageSize=0', 'PageNumber=-1', 'PageSize=1.5', 'PageNumber=abc', 'PageSize='])(
    'answers %s with 400 and a plain JSON string',
    async (query) => {
      const response = await api.get(`/Integration/Locations?${query}`);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect(response.text).toBe('"PageNumber and PageSize must be greater than 0."');
    },
  );

  it('reads one location by its id and 404s an unknown one', async () => {
    const payload = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [payload] });
    expect((await api.get(`/Integration/Locations/${payload.id}`)).body).toMatchObject({
      id: payload.id,
      details: { name: 'Oslo plant' },
    });
    const missing = await api.get('/Integration/Locations/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      status: 404,
      code: 'unknown-location',
      detail: 'Location nope was not found.',
    });
  });
});

describe('PUT /Integration/Location', () => {
  it('reports hasActiveInventory once an event leaves stock at the location, and not after it is all decommissioned', async () => {
    const payload = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [payload] });
    const product = {
      Id: 'COD',
      Details: { Name: 'Cod', SimpleUnitOfMeasurement: 'kg', SharingPolicy: 'Open', ProductIdentifierType: 'Lot' },
    };
    const event = (type: string, id: string, time: string) => ({
      $type: type,
      Id: id,
      Location: { Id: payload.id },
      EventTime: time,
      EventTimeZone: '+00:00',
      ProductInstances: [{ Quantity: 5, LotSerial: 'L1', Product: product }],
    });
    const update = () =>
      api.put('/Integration/Location', { Location: { id: payload.id, Details: { Name: payload.Details.Name } } });
    expect(
      (await api.post('/Integration/Events', { Events: [event('commission', 'C1', '2024-03-01T00:00:00')] })).status,
    ).toBe(200);
    expect((await update()).body.result.hasActiveInventory).toBe(true);
    expect(
      (await api.post('/Integration/Events', { Events: [event('decommission', 'D1', '2024-03-02T00:00:00')] })).status,
    ).toBe(200);
    expect((await update()).body.result.hasActiveInventory).toBe(false);
  });

  it('updates a standard location in the single-object form and answers the update result', async () => {
    const payload = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [payload] });
    const response = await api.put('/Integration/Location', {
      Location: {
        id: payload.id,
        Details: {
          Name: 'Oslo plant 2',
          Gln: '7038010000027',
          Extension: 'X1',
          ContactInformation: { Phone: '+47 99 99 99 99' },
        },
      },
    });
    expect(response.status).toBe(200);
    const partner = payload.Details.TradePartner;
    expect(response.body).toEqual({
      message: expect.any(String),
      errors: [],
      validations: [],
      result: {
        id: payload.id,
        accountId: account.id,
        tradePartnerId: partner.Id,
        networkStatus: null,
        tradePartnerName: 'Acme Seafood',
        tradePartnerUrn: `urn:gdst:traceability.local:party:${account.name}.${partner.Id}`,
        name: 'Oslo plant 2',
        gln: '7038010000027',
        duns: '123456789',
        externalIdentifier: payload.id,
        extension: 'X1',
        captainsName: null,
        urn: `urn:gdst:traceability.local:location:loc:${account.name}.${payload.id}`,
        hasActiveInventory: false,
        address: expect.objectContaining({ city: 'Oslo', geoCoordinates: { latitude: 59.91, longitude: 10.75 } }),
        contact: { name: 'Kari Nordmann', phone: '+47 99 99 99 99', email: 'kari@example.org' },
        vessel: null,
        wholechainId: null,
        sharedWith: [],
        createdTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        isDefault: false,
        geoJson: { type: 'Point', coordinates: [10.75, 59.91] },
        foodFacilityRegistrationNumber: null,
        locationGroupId: null,
        locationType: null,
        locationGroup: null,
        dataPolicyElements: [],
        ownerInfo: { accountId: account.id, accountName: account.name },
      },
    });
  });

  it('updates only the trade partner when the body carries just id and Details.TradePartner', async () => {
    const payload = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [payload] });
    const partnerId = payload.Details.TradePartner.Id;
    const response = await api.put('/Integration/Location', {
      Locations: [
        {
          id: payload.id,
          Details: { TradePartner: { Id: partnerId, Name: 'Acme Seafood AS', ConnectionType: 'BUYER' } },
        },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: expect.any(String),
      result: [{ id: expect.any(String), status: 'Updated' }],
      errors: [],
      validations: [],
    });
    const read = await api.get(`/Integration/Locations/${payload.id}`);
    expect(read.body.details.tradePartner).toMatchObject({
      id: partnerId,
      name: 'Acme Seafood AS',
      connectionType: 'BUYER',
    });
    expect(read.body.details).toMatchObject({ name: 'Oslo plant', gln: '7038010000010', address: { city: 'Oslo' } });
  });

  it("changes a vessel's home port with Details.Address alone, keeping everything else", async () => {
    const vessel = buildVesselPayload();
    await api.post('/Integration/Locations', { Locations: [vessel] });
    const response = await api.put('/Integration/Location', {
      Locations: [
        {
          Id: vessel.id,
          Details: {
            Address: { City: 'Bodø', AddressLine1: 'Kaia 2', GeoCoordinates: { Latitude: 67.28, Longitude: 14.4 } },
          },
        },
      ],
    });
    expect(response.status).toBe(200);
    const read = await api.get(`/Integration/Locations/${vessel.id}`);
    expect(read.body.details.address).toEqual({
      city: 'Bodø',
      state: null,
      country: 'Norway',
      addressLine1: 'Kaia 2',
      addressLine2: null,
      postalCode: null,
      geoCoordinates: { latitude: 67.28, longitude: 14.4 },
      displayAddress: 'Kaia 2, Bodø, Norway',
    });
    expect(read.body.details).toMatchObject({
      name: 'Northern Star',
      captainsName: 'Ola Nordmann',
      vessel: { imoNumber: 'IMO 9074729' },
    });
  });

  it("updates a vessel's captain and vessel fields", async () => {
    const vessel = buildVesselPayload();
    await api.post('/Integration/Locations', { Locations: [vessel] });
    const response = await api.put('/Integration/Location', {
      Locations: [
        {
          id: vessel.id,
          Details: { CaptainsName: 'Per Hansen', Vessel: { VesselName: 'Southern Star', VesselFlagState: 'IS' } },
        },
      ],
    });
    expect(response.status).toBe(200);
    const read = await api.get(`/Integration/Locations/${vessel.id}`);
    expect(read.body.details.captainsName).toBe('Per Hansen');
    expect(read.body.details.vessel).toMatchObject({
      vesselName: 'Southern Star',
      vesselFlagState: 'IS',
      imoNumber: 'IMO 9074729',
      unloadingPort: 'Tromsø',
    });
  });

  it('refuses OTHER as the ConnectionType of a vessel on update', async () => {
    const vessel = buildVesselPayload();
    await api.post('/Integration/Locations', { Locations: [vessel] });
    const response = await api.put('/Integration/Location', {
      Location: {
        id: vessel.id,
        Details: { TradePartner: { Id: vessel.Details.TradePartner.Id, ConnectionType: 'OTHER' } },
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({ index: 0, field: 'Location.Details.TradePartner.ConnectionType' }),
    ]);
  });

  it('refuses vessel fields on a standard location', async () => {
    const payload = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [payload] });
    const response = await api.put('/Integration/Location', {
      Location: { id: payload.id, Details: { CaptainsName: 'Nobody' } },
    });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([expect.objectContaining({ field: 'Location.Details.CaptainsName' })]);
  });

  it('refuses an update that leaves the address without street fields or coordinates', async () => {
    const payload = buildLocationPayload({ Details: { Address: { GeoCoordinates: undefined } } });
    await api.post('/Integration/Locations', { Locations: [payload] });
    const response = await api.put('/Integration/Location', {
      Location: { id: payload.id, Details: { Address: { City: '' } } },
    });
    expect(response.status).toBe(400);
    const ok = await api.put('/Integration/Location', {
      Location: { id: payload.id, Details: { Address: { State: 'Oslo' } } },
    });
    expect(ok.status).toBe(200);
  });

  it('answers an unknown id with 404 in the four-key body and changes nothing', async () => {
    const payload = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [payload] });
    const response = await api.put('/Integration/Location', {
      Locations: [
        { id: payload.id, Details: { Name: 'Changed' } },
        { id: 'nope', Details: { Name: 'x' } },
      ],
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      message: expect.any(String),
      result: [],
      errors: [{ index: 1, id: 'nope', field: 'Locations[1].id', message: 'Location nope was not found.' }],
      validations: [],
    });
    expect((await api.get(`/Integration/Locations/${payload.id}`)).body.details.name).toBe('Oslo plant');
  });

  it("answers 400 when TradePartner.Id is not the location's trade partner", async () => {
    const payload = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [payload] });
    const response = await api.put('/Integration/Location', {
      Location: { id: payload.id, Details: { Name: 'Changed', TradePartner: { Id: 'TP-other', Name: 'x' } } },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      expect.objectContaining({ index: 0, id: payload.id, field: 'Location.Details.TradePartner.Id' }),
    ]);
    expect((await api.get(`/Integration/Locations/${payload.id}`)).body.details.name).toBe('Oslo plant');
  });

  it('refuses a body with neither Locations nor Location, and schema errors in the single form', async () => {
    const neither = await api.put('/Integration/Location', {});
    expect(neither.status).toBe(400);
    expect(neither.body.validations).toEqual([expect.objectContaining({ field: 'Locations' })]);
    const invalid = await api.put('/Integration/Location', {
      Location: { id: 'x', Details: { TradePartner: { Id: 'TP', ConnectionType: 'NOPE' } } },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.validations).toEqual([
      expect.objectContaining({ index: 0, id: 'x', field: 'Location.Details.TradePartner.ConnectionType' }),
    ]);
  });
});

describe('tenancy', () => {
  it("a key of account A can neither see nor update account B's locations", async () => {
    const payload = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [payload] });
    const other = client((await createAccount('loc')).key);
    expect((await other.get(`/Integration/Locations/${payload.id}`)).status).toBe(404);
    expect((await other.get('/Integration/Locations')).body).toMatchObject({ totalItems: 0, results: [] });
    const update = await other.put('/Integration/Location', {
      Location: { id: payload.id, Details: { Name: 'Stolen' } },
    });
    expect(update.status).toBe(404);
    expect(update.body).toMatchObject({ result: [], errors: [expect.objectContaining({ id: payload.id })] });
    expect((await api.get(`/Integration/Locations/${payload.id}`)).body.details.name).toBe('Oslo plant');
  });
});
