import { createAccount, type TestAccount } from '../factories/accounts';
import { buildLocationPayload, buildVesselPayload } from '../factories/master-data';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';

const countLocations = async (accountId: string): Promise<number> =>
  Number((await sql().query('SELECT count(*) FROM locations WHERE account_id = $1', [accountId])).rows[0].count);
const countPartners = async (accountId: string): Promise<number> =>
  Number((await sql().query('SELECT count(*) FROM trade_partners WHERE account_id = $1', [accountId])).rows[0].count);

const fourKeyError = { message: expect.any(String), result: [], errors: expect.any(Array), validations: expect.any(Array) };

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
    const { rows } = await sql().query('SELECT id, external_id, urn FROM locations WHERE account_id = $1 ORDER BY seq', [account.id]);
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
    const { rows } = await sql().query('SELECT DISTINCT trade_partner_id FROM locations WHERE account_id = $1', [account.id]);
    expect(rows).toHaveLength(1);
    const partner = (await sql().query('SELECT urn FROM trade_partners WHERE account_id = $1', [account.id])).rows[0];
    expect(partner.urn).toBe(`urn:gdst:traceability.local:party:${account.name}.${first.Details.TradePartner.Id}`);
  });

  it('refuses a different Name for an existing trade partner id, naming both names', async () => {
    const first = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [first] });
    const second = buildLocationPayload({ Details: { TradePartner: { Id: first.Details.TradePartner.Id, Name: 'Other Org' } } });
    const response = await api.post('/Integration/Locations', { Locations: [second] });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ ...fourKeyError, validations: [] });
    expect(response.body.errors).toEqual([
      { index: 0, id: second.id, field: 'Locations[0].Details.TradePartner.Name', message: expect.stringContaining('"Acme Seafood"') },
    ]);
    expect(response.body.errors[0].message).toContain('"Other Org"');
    expect(await countLocations(account.id)).toBe(1);
  });

  it('refuses two names for one new trade partner id within one request', async () => {
    const first = buildLocationPayload();
    const second = buildLocationPayload({ Details: { TradePartner: { Id: first.Details.TradePartner.Id, Name: 'Other Org' } } });
    const response = await api.post('/Integration/Locations', { Locations: [first, second] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([expect.objectContaining({ index: 1, field: 'Locations[1].Details.TradePartner.Name' })]);
    expect(await countPartners(account.id)).toBe(0);
  });

  it('creates a vessel with its captain and vessel fields', async () => {
    const vessel = buildVesselPayload();
    const response = await api.post('/Integration/Locations', { Locations: [vessel] });
    expect(response.status).toBe(200);
    const { rows } = await sql().query('SELECT captains_name, vessel, contact FROM locations WHERE account_id = $1', [account.id]);
    expect(rows[0].captains_name).toBe('Ola Nordmann');
    expect(rows[0].vessel).toMatchObject({ vesselName: 'Northern Star', imoNumber: 'IMO 9074729', vesselPublicRegistryLink: 'https://registry.example/vessel/9074729' });
  });

  it('requires ContactInformation for a vessel', async () => {
    const response = await api.post('/Integration/Locations', { Locations: [buildVesselPayload({ Details: { ContactInformation: undefined } })] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([expect.objectContaining({ index: 0, field: 'Locations[0].Details.ContactInformation' })]);
  });

  it('allows only SELF, SUPPLIER and BUYER as a vessel ConnectionType', async () => {
    const response = await api.post('/Integration/Locations', { Locations: [buildVesselPayload({ Details: { TradePartner: { ConnectionType: 'OTHER' } } })] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({ field: 'Locations[0].Details.TradePartner.ConnectionType', message: expect.stringContaining('SELF, SUPPLIER, BUYER') }),
    ]);
  });

  it.each([
    ['Details', { Details: undefined }, 'Locations[0].Details'],
    ['Details.Name', { Details: { Name: undefined } }, 'Locations[0].Details.Name'],
    ['Details.Address', { Details: { Address: undefined } }, 'Locations[0].Details.Address'],
    ['Details.TradePartner', { Details: { TradePartner: undefined } }, 'Locations[0].Details.TradePartner'],
    ['TradePartner.Id', { Details: { TradePartner: { Id: undefined } } }, 'Locations[0].Details.TradePartner.Id'],
    ['TradePartner.Name', { Details: { TradePartner: { Name: undefined } } }, 'Locations[0].Details.TradePartner.Name'],
    ['TradePartner.ConnectionType', { Details: { TradePartner: { ConnectionType: undefined } } }, 'Locations[0].Details.TradePartner.ConnectionType'],
    ['ContactInformation.Name', { Details: { ContactInformation: { Name: undefined } } }, 'Locations[0].Details.ContactInformation.Name'],
  ])('requires %s', async (_name, overrides, field) => {
    const payload = buildLocationPayload(overrides as Parameters<typeof buildLocationPayload>[0]);
    const response = await api.post('/Integration/Locations', { Locations: [payload] });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ ...fourKeyError, errors: [] });
    expect(response.body.validations).toContainEqual({ index: 0, id: payload.id, field, message: `${field} is required.` });
  });

  it('requires an id', async () => {
    const response = await api.post('/Integration/Locations', { Locations: [buildLocationPayload({ id: undefined })] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([{ index: 0, id: null, field: 'Locations[0].id', message: 'Locations[0].id is required.' }]);
  });

  it('checks ConnectionType against its enum', async () => {
    const payload = buildLocationPayload({ Details: { TradePartner: { ConnectionType: 'FRIEND' as 'SELF' } } });
    const response = await api.post('/Integration/Locations', { Locations: [payload] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({ field: 'Locations[0].Details.TradePartner.ConnectionType', message: expect.stringContaining('SELF, SUPPLIER, BUYER, OTHER') }),
    ]);
  });

  it.each([['12345678'], ['1234567890'], ['12345678A'], ['12345678901234']])('refuses Duns %s (9 or 13 digits only)', async (duns) => {
    const response = await api.post('/Integration/Locations', { Locations: [buildLocationPayload({ Details: { Duns: duns } })] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([expect.objectContaining({ field: 'Locations[0].Details.Duns', message: 'Locations[0].Details.Duns must contain 9 or 13 digits.' })]);
  });

  it('accepts a 13-digit Duns', async () => {
    expect((await api.post('/Integration/Locations', { Locations: [buildLocationPayload({ Details: { Duns: '1234567890123' } })] })).status).toBe(200);
  });

  it('requires City, Country and AddressLine1 when no GeoCoordinates are given', async () => {
    const payload = buildLocationPayload({ Details: { Address: { GeoCoordinates: undefined, City: undefined, AddressLine1: undefined } } });
    const response = await api.post('/Integration/Locations', { Locations: [payload] });
    expect(response.status).toBe(400);
    expect(response.body.validations.map((v: { field: string }) => v.field)).toEqual(['Locations[0].Details.Address.City', 'Locations[0].Details.Address.AddressLine1']);
  });

  it('accepts GeoCoordinates alone as the address', async () => {
    const payload = buildLocationPayload({ Details: { Address: undefined } });
    payload.Details.Address = { GeoCoordinates: { Latitude: -33.9, Longitude: 151.2 } };
    expect((await api.post('/Integration/Locations', { Locations: [payload] })).status).toBe(200);
    const listed = await api.get(`/Integration/Locations/${payload.id}`);
    expect(listed.body.details.address).toMatchObject({ city: null, geoCoordinates: { latitude: -33.9, longitude: 151.2 } });
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
    expect(response.body.validations).toEqual([expect.objectContaining({ field: `Locations[0].Details.Address.GeoCoordinates.${name}` })]);
  });

  it('requires VesselPublicRegistryLink to be a URL', async () => {
    const response = await api.post('/Integration/Locations', { Locations: [buildVesselPayload({ Details: { Vessel: { VesselPublicRegistryLink: 'not a link' } } })] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([expect.objectContaining({ field: 'Locations[0].Details.Vessel.VesselPublicRegistryLink', message: expect.stringContaining('URL') })]);
  });

  it('refuses a location id the account already has', async () => {
    const payload = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [payload] });
    const response = await api.post('/Integration/Locations', { Locations: [buildLocationPayload(), buildLocationPayload({ id: payload.id })] });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ index: 1, id: payload.id, field: 'Locations[1].id', message: `Location id "${payload.id}" already exists in this account.` }]);
    expect(await countLocations(account.id)).toBe(1);
  });

  it('refuses the same id twice in one request', async () => {
    const payload = buildLocationPayload();
    const response = await api.post('/Integration/Locations', { Locations: [payload, buildLocationPayload({ id: payload.id })] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([expect.objectContaining({ index: 1, id: payload.id, field: 'Locations[1].id' })]);
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
    expect(response.body.validations).toEqual([{ index: 2, id: bad.id, field: 'Locations[2].Details.Name', message: 'Locations[2].Details.Name is required.' }]);
    expect(await countLocations(account.id)).toBe(0);
    expect(await countPartners(account.id)).toBe(0);
  });

  it('stores nothing when a later element conflicts with stored data', async () => {
    const existing = buildLocationPayload();
    await api.post('/Integration/Locations', { Locations: [existing] });
    const response = await api.post('/Integration/Locations', { Locations: [buildLocationPayload(), buildVesselPayload(), buildLocationPayload({ id: existing.id })] });
    expect(response.status).toBe(400);
    expect(await countLocations(account.id)).toBe(1);
    expect(await countPartners(account.id)).toBe(1);
  });

  it('refuses an empty list and a missing Locations', async () => {
    const empty = await api.post('/Integration/Locations', { Locations: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.validations).toEqual([{ index: null, id: null, field: 'Locations', message: 'Locations must contain at least 1 element(s).' }]);
    const missing = await api.post('/Integration/Locations', {});
    expect(missing.body.validations).toEqual([{ index: null, id: null, field: 'Locations', message: 'Locations is required.' }]);
  });
});
