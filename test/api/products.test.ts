import { createAccount, type TestAccount } from '../factories/accounts';
import { buildProductPayload, cjk } from '../factories/master-data';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';

const countProducts = async (accountId: string): Promise<number> =>
  Number((await sql().query('SELECT count(*) FROM products WHERE account_id = $1', [accountId])).rows[0].count);

let account: TestAccount;
let api: ReturnType<typeof client>;

beforeEach(async () => {
  account = await createAccount('prod');
  api = client(account.key);
});

describe('POST /Integration/Products', () => {
  it('creates several products and answers the four keys with service ids', async () => {
    const products = [
      buildProductPayload(),
      buildProductPayload({ Details: { ProductIdentifierType: 'Serial', SharingPolicy: 'Restricted' } }),
    ];
    const response = await api.post('/Integration/Products', { Products: products });
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
    const { rows } = await sql().query('SELECT id, urn FROM products WHERE account_id = $1 ORDER BY seq', [account.id]);
    expect(rows.map((row) => row.id)).toEqual(response.body.result.map((entry: { id: string }) => entry.id));
    expect(rows[0].urn).toBe(`urn:gdst:traceability.local:product:class:${account.name}.${products[0].Id}`);
  });

  it.each([
    ['kg', 'KGM'],
    ['KGS', 'KGM'],
    ['lbs', 'LBR'],
    ['Pound', 'LBR'],
    ['LBR', 'LBR'],
    ['g', 'GRM'],
    ['oz', 'ONZ'],
    ['tonne', 'TNE'],
    ['litre', 'LTR'],
    ['EA', 'EA'],
    ['each', 'H87'],
  ])('stores the unit %s as %s', async (unit, code) => {
    const payload = buildProductPayload({ Details: { SimpleUnitOfMeasurement: unit } });
    expect((await api.post('/Integration/Products', { Products: [payload] })).status).toBe(200);
    expect((await api.get(`/Integration/Products/${payload.Id}`)).body.details.simpleUnitOfMeasurement).toBe(code);
  });

  it('refuses an unknown unit and lists what is accepted', async () => {
    const payload = buildProductPayload({ Details: { SimpleUnitOfMeasurement: 'furlongs' } });
    const response = await api.post('/Integration/Products', { Products: [payload] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      {
        index: 0,
        id: payload.Id,
        field: 'Products[0].Details.SimpleUnitOfMeasurement',
        message: expect.stringMatching(/"furlongs".*KGM.*LBR.*lbs/),
      },
    ]);
  });

  it.each([
    ['Id', { Id: undefined }, 'Products[0].Id'],
    ['Details', { Details: undefined }, 'Products[0].Details'],
    ['Details.Name', { Details: { Name: undefined } }, 'Products[0].Details.Name'],
    [
      'Details.SimpleUnitOfMeasurement',
      { Details: { SimpleUnitOfMeasurement: undefined } },
      'Products[0].Details.SimpleUnitOfMeasurement',
    ],
    ['Details.SharingPolicy', { Details: { SharingPolicy: undefined } }, 'Products[0].Details.SharingPolicy'],
    [
      'Details.ProductIdentifierType',
      { Details: { ProductIdentifierType: undefined } },
      'Products[0].Details.ProductIdentifierType',
    ],
  ])('requires %s', async (_name, overrides, field) => {
    const payload = buildProductPayload(overrides as Parameters<typeof buildProductPayload>[0]);
    const response = await api.post('/Integration/Products', { Products: [payload] });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      message: expect.any(String),
      result: [],
      errors: [],
      validations: [expect.objectContaining({ index: 0, field, message: `${field} is required.` })],
    });
  });

  it.each([
    ['SharingPolicy', 'Public', 'Open, Restricted'],
    ['ProductIdentifierType', 'Batch', 'Lot, Serial'],
    ['UnitDescriptor', 'Crates', 'Cases, Units, Totes, Pallets'],
  ])('checks %s against its enum', async (name, value, allowed) => {
    const payload = buildProductPayload({ Details: { [name]: value } });
    const response = await api.post('/Integration/Products', { Products: [payload] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({ field: `Products[0].Details.${name}`, message: expect.stringContaining(allowed) }),
    ]);
  });

  it.each([[0], [-1]])('refuses UnitQuantity %d', async (quantity) => {
    const response = await api.post('/Integration/Products', {
      Products: [buildProductPayload({ Details: { UnitQuantity: quantity } })],
    });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([expect.objectContaining({ field: 'Products[0].Details.UnitQuantity' })]);
  });

  it.each(['name', 'namespace', 'value'])('requires MasterData[].%s', async (key) => {
    const entry: Record<string, string> = { name: 'species', namespace: 'custom', value: 'cod' };
    delete entry[key];
    const payload = buildProductPayload({
      Details: { MasterData: [entry as { name: string; namespace: string; value: string }] },
    });
    const response = await api.post('/Integration/Products', { Products: [payload] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({ field: `Products[0].Details.MasterData[0].${key}` }),
    ]);
  });

  // 1,000 characters of a CJK script are 3,000 bytes, past what the id's unique index takes: a 500 before.
  it.each([
    ['201 characters', 'P'.repeat(201)],
    ['1,000 CJK characters', cjk(1000)],
  ])('refuses an Id of %s as events do, naming it, and stores nothing', async (_, id) => {
    const response = await api.post('/Integration/Products', { Products: [buildProductPayload({ Id: id })] });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      { index: 0, id, field: 'Products[0].Id', message: 'Products[0].Id must NOT have more than 200 characters.' },
    ]);
    expect(await countProducts(account.id)).toBe(0);
  });

  it('refuses a Gtin that is no GTIN, naming it and the check digit it should have, on create and update', async () => {
    const response = await api.post('/Integration/Products', {
      Products: [
        buildProductPayload({ Details: { Gtin: 'hello world' } }),
        buildProductPayload({ Details: { Gtin: '07038010000017' } }),
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({
        index: 0,
        field: 'Products[0].Details.Gtin',
        message: 'hello world is not a GTIN: a GTIN is 8, 12, 13 or 14 digits.',
      }),
      expect.objectContaining({
        index: 1,
        field: 'Products[1].Details.Gtin',
        message: '07038010000017 is not a GTIN: its check digit is 7, the GS1 check digit of 0703801000001 is 0.',
      }),
    ]);
    expect(await countProducts(account.id)).toBe(0);
    const product = buildProductPayload();
    await api.post('/Integration/Products', { Products: [product] });
    const update = await api.put('/Integration/Products', { Products: [{ Id: product.Id, Details: { Gtin: '123' } }] });
    expect(update.status).toBe(400);
    expect(update.body.validations).toEqual([expect.objectContaining({ field: 'Products[0].Details.Gtin' })]);
  });

  it('refuses a product id the account already has', async () => {
    const payload = buildProductPayload();
    await api.post('/Integration/Products', { Products: [payload] });
    const response = await api.post('/Integration/Products', { Products: [buildProductPayload(), payload] });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      {
        index: 1,
        id: payload.Id,
        field: 'Products[1].Id',
        message: `Product id "${payload.Id}" already exists in this account.`,
      },
    ]);
    expect(await countProducts(account.id)).toBe(1);
  });

  it('refuses the same id twice in one request', async () => {
    const payload = buildProductPayload();
    const response = await api.post('/Integration/Products', {
      Products: [payload, buildProductPayload({ Id: payload.Id })],
    });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({ index: 1, id: payload.Id, field: 'Products[1].Id' }),
    ]);
    expect(await countProducts(account.id)).toBe(0);
  });

  it('stores nothing when one element of a batch is invalid', async () => {
    const response = await api.post('/Integration/Products', {
      Products: [
        buildProductPayload(),
        buildProductPayload(),
        buildProductPayload({ Details: { SharingPolicy: undefined } }),
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({ index: 2, field: 'Products[2].Details.SharingPolicy' }),
    ]);
    expect(await countProducts(account.id)).toBe(0);
  });

  it('stores nothing when a later element already exists', async () => {
    const existing = buildProductPayload();
    await api.post('/Integration/Products', { Products: [existing] });
    const response = await api.post('/Integration/Products', {
      Products: [buildProductPayload(), buildProductPayload(), existing],
    });
    expect(response.status).toBe(400);
    expect(await countProducts(account.id)).toBe(1);
  });
});

describe('GET /Integration/Products', () => {
  it('lists products in creation order with numbers as numbers', async () => {
    const products = [
      buildProductPayload({ Details: { UnitQuantity: 2.5 } }),
      buildProductPayload({ Details: { UnitQuantity: undefined, UnitDescriptor: undefined } }),
    ];
    await api.post('/Integration/Products', { Products: products });
    const response = await api.get('/Integration/Products');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      totalPages: 1,
      pageNumber: 1,
      pageSize: 20,
      totalItems: 2,
      hasNextPage: false,
      hasPreviousPage: false,
      results: [
        {
          id: products[0].Id,
          urn: `urn:gdst:traceability.local:product:class:${account.name}.${products[0].Id}`,
          details: {
            name: 'Atlantic cod fillet',
            simpleUnitOfMeasurement: 'KGM',
            unitQuantity: 2.5,
            unitDescriptor: 'Cases',
            sharingPolicy: 'Open',
            productIdentifierType: 'Lot',
            gtin: '07038010000010',
            plu: null,
            masterData: [{ name: 'species', namespace: 'custom', value: 'Gadus morhua' }],
          },
        },
        expect.objectContaining({
          id: products[1].Id,
          details: expect.objectContaining({ unitQuantity: null, unitDescriptor: null }),
        }),
      ],
    });
  });

  it('pages', async () => {
    const products = Array.from({ length: 5 }, () => buildProductPayload());
    await api.post('/Integration/Products', { Products: products });
    const response = await api.get('/Integration/Products?PageNumber=2&PageSize=2');
    expect(response.body).toMatchObject({
      totalPages: 3,
      pageNumber: 2,
      pageSize: 2,
      totalItems: 5,
      hasNextPage: true,
      hasPreviousPage: true,
    });
    expect(response.body.results.map((r: { id: string }) => r.id)).toEqual([products[2].Id, products[3].Id]);
  });

  it.each(['PageNumber=0', 'PageSize=0', 'PageSize=abc'])('answers %s with the plain string 400', async (query) => {
    const response = await api.get(`/Integration/Products?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toBe('PageNumber and PageSize must be greater than 0.');
  });

  it('reads one product by its id, and 404s an unknown one', async () => {
    const payload = buildProductPayload();
    await api.post('/Integration/Products', { Products: [payload] });
    expect((await api.get(`/Integration/Products/${payload.Id}`)).body.id).toBe(payload.Id);
    const missing = await api.get('/Integration/Products/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ status: 404, code: 'unknown-product', detail: 'Product nope was not found.' });
  });
});

describe('PUT /Integration/Products', () => {
  it('changes only the Details fields it carries', async () => {
    const payload = buildProductPayload();
    await api.post('/Integration/Products', { Products: [payload] });
    const response = await api.put('/Integration/Products', {
      Products: [{ Id: payload.Id, Details: { Name: 'Cod loin', SimpleUnitOfMeasurement: 'lbs' } }],
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: expect.any(String),
      result: [{ id: expect.any(String), status: 'Updated' }],
      errors: [],
      validations: [],
    });
    const read = await api.get(`/Integration/Products/${payload.Id}`);
    expect(read.body.details).toMatchObject({
      name: 'Cod loin',
      simpleUnitOfMeasurement: 'LBR',
      unitQuantity: 2,
      unitDescriptor: 'Cases',
      gtin: '07038010000010',
    });
  });

  it('answers an unknown id with 404 in the four-key body and changes nothing', async () => {
    const payload = buildProductPayload();
    await api.post('/Integration/Products', { Products: [payload] });
    const response = await api.put('/Integration/Products', {
      Products: [
        { Id: payload.Id, Details: { Name: 'Changed' } },
        { Id: 'nope', Details: { Name: 'x' } },
      ],
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      message: expect.any(String),
      result: [],
      errors: [{ index: 1, id: 'nope', field: 'Products[1].Id', message: 'Product nope was not found.' }],
      validations: [],
    });
    expect((await api.get(`/Integration/Products/${payload.Id}`)).body.details.name).toBe('Atlantic cod fillet');
  });

  it('refuses an unknown unit in an update', async () => {
    const payload = buildProductPayload();
    await api.post('/Integration/Products', { Products: [payload] });
    const response = await api.put('/Integration/Products', {
      Products: [{ Id: payload.Id, Details: { SimpleUnitOfMeasurement: 'bushel' } }],
    });
    expect(response.status).toBe(400);
    expect(response.body.validations).toEqual([
      expect.objectContaining({ field: 'Products[0].Details.SimpleUnitOfMeasurement' }),
    ]);
  });
});

describe('tenancy', () => {
  it("a key of account A can neither see nor update account B's products", async () => {
    const payload = buildProductPayload();
    await api.post('/Integration/Products', { Products: [payload] });
    const other = client((await createAccount('prod')).key);
    expect((await other.get(`/Integration/Products/${payload.Id}`)).status).toBe(404);
    expect((await other.get('/Integration/Products')).body.totalItems).toBe(0);
    const update = await other.put('/Integration/Products', {
      Products: [{ Id: payload.Id, Details: { Name: 'Stolen' } }],
    });
    expect(update.status).toBe(404);
    expect((await api.get(`/Integration/Products/${payload.Id}`)).body.details.name).toBe('Atlantic cod fillet');
  });
});
