import { createAccount, type TestAccount } from '../factories/accounts';
import {
  commission,
  locationPayload,
  productPayload,
  receive,
  record,
  serviceId,
  ship,
  transform,
  uid,
} from '../factories/trace-events';
import { client, request } from '../helpers/http';

const lot = (product: ReturnType<typeof productPayload>, lotSerial: string, quantity: number) => ({
  product,
  lot: lotSerial,
  quantity,
});

describe('GET /Integration/Inventory', () => {
  let account: TestAccount;
  const plant = locationPayload(uid('PLANT'));
  const store = locationPayload(uid('STORE'));
  const customer = locationPayload(uid('CUST'), { connectionType: 'BUYER' });
  const salmon = productPayload(uid('SALMON'), 'Open', 'Atlantic salmon');
  const cod = productPayload(uid('COD'), 'Open', 'Cod loins');
  let salmonId: string;
  let codId: string;
  let plantId: string;
  let storeId: string;

  beforeAll(async () => {
    account = await createAccount('inventory');
    // SPEC.md rule 2: records of 100 (t1) and 200 (t3); a ship of 50 at t2 arrives afterwards.
    await record(account.key, commission(plant, '2024-03-01T08:00:00', [lot(salmon, 'S-1', 100)]));
    await record(account.key, receive(plant, '2024-03-03T08:00:00', [lot(salmon, 'S-1', 100)]));
    await record(account.key, ship(plant, customer, '2024-03-02T08:00:00', [lot(salmon, 'S-1', 50)]));
    await record(account.key, commission(store, '2024-03-04T08:00:00', [lot(salmon, 'S-2', 7), lot(cod, 'C-1', 12.5)]));
    salmonId = await serviceId('products', account.id, salmon.Id);
    codId = await serviceId('products', account.id, cod.Id);
    plantId = await serviceId('locations', account.id, plant.Id);
    storeId = await serviceId('locations', account.id, store.Id);
  });

  const get = (query: string, headers?: Record<string, string>) =>
    client(account.key).get(`/Integration/Inventory?${query}`, headers);

  it('reads SPEC.md rule 2 back: the historical ship leaves 50 and 150', async () => {
    const response = await get(`ProductIds=${salmonId}&LocationIds=${plantId}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      products: [
        {
          productId: salmonId,
          externalProductId: salmon.Id,
          productName: 'Atlantic salmon',
          lots: [
            {
              lotSerial: 'S-1',
              inventory: [
                {
                  locationId: plantId,
                  externalLocationId: plant.Id,
                  locationName: plant.Details.Name,
                  quantityAvailable: 50,
                  eventDate: '2024-03-01T08:00:00Z',
                },
                {
                  locationId: plantId,
                  externalLocationId: plant.Id,
                  locationName: plant.Details.Name,
                  quantityAvailable: 50,
                  eventDate: '2024-03-02T08:00:00Z',
                },
                {
                  locationId: plantId,
                  externalLocationId: plant.Id,
                  locationName: plant.Details.Name,
                  quantityAvailable: 150,
                  eventDate: '2024-03-03T08:00:00Z',
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it('by product: that product across all locations, lots oldest first', async () => {
    const response = await get(`ProductIds=${salmonId}`);
    expect(response.body.products).toHaveLength(1);
    const lots = response.body.products[0].lots as {
      lotSerial: string;
      inventory: { locationId: string; quantityAvailable: number }[];
    }[];
    expect(lots.map((l) => l.lotSerial)).toEqual(['S-1', 'S-2']);
    expect(lots[1].inventory).toEqual([expect.objectContaining({ locationId: storeId, quantityAvailable: 7 })]);
  });

  it('by location: every product there', async () => {
    const response = await get(`LocationIds=${storeId}`);
    const products = response.body.products as {
      productId: string;
      lots: { inventory: { quantityAvailable: number }[] }[];
    }[];
    expect(products.map((p) => p.productId).sort()).toEqual([salmonId, codId].sort());
    expect(products.find((p) => p.productId === codId)!.lots[0].inventory[0].quantityAvailable).toBe(12.5);
  });

  it('with both filters, only records matching both', async () => {
    const response = await get(`ProductIds=${codId}&LocationIds=${plantId}`);
    expect(response.body).toEqual({ products: [] });
    const both = await get(`ProductIds=${codId}&ProductIds=${salmonId}&LocationIds=${storeId}`);
    expect(both.body.products).toHaveLength(2);
  });

  it('repeated parameters select several ids', async () => {
    const response = await get(`ProductIds=${salmonId}&ProductIds=${codId}`);
    expect(response.body.products.map((p: { productId: string }) => p.productId).sort()).toEqual(
      [salmonId, codId].sort(),
    );
  });

  it("accepts the caller's own ids too", async () => {
    const byExternal = await get(
      `ProductIds=${encodeURIComponent(salmon.Id)}&LocationIds=${encodeURIComponent(plant.Id)}`,
    );
    const byService = await get(`ProductIds=${salmonId}&LocationIds=${plantId}`);
    expect(byExternal.body).toEqual(byService.body);
  });

  it('names products and locations by the service id and, beside it, by the id the caller sent', async () => {
    const response = await get(`ProductIds=${encodeURIComponent(cod.Id)}`);
    expect(response.body.products).toEqual([
      expect.objectContaining({ productId: codId, externalProductId: cod.Id, productName: 'Cod loins' }),
    ]);
    expect(response.body.products[0].lots[0].inventory).toEqual([
      expect.objectContaining({ locationId: storeId, externalLocationId: store.Id, quantityAvailable: 12.5 }),
    ]);
  });

  it.each([
    ['a comma-separated list', (a: string, b: string) => `ProductIds=${a},${b}`],
    ['a JSON array', (a: string, b: string) => `ProductIds=${encodeURIComponent(JSON.stringify([a, b]))}`],
  ])('refuses %s and says to repeat the parameter', async (_what, query) => {
    const response = await get(query(salmonId, codId));
    expect(response.status).toBe(400);
    expect(response.body.errors.ProductIds[0]).toMatch(/repeat it/);
  });

  it('needs at least one of ProductIds or LocationIds', async () => {
    const response = await get('');
    expect(response.status).toBe(400);
    expect(response.body.errors.ProductIds).toEqual(['At least one of ProductIds or LocationIds is required.']);
  });

  it('AsOf gives the record applicable at that instant per product, lot and location', async () => {
    const at = await get(`ProductIds=${salmonId}&LocationIds=${plantId}&AsOf=2024-03-02T12:00:00Z`);
    expect(at.body.products[0].lots[0].inventory).toEqual([
      {
        locationId: plantId,
        externalLocationId: plant.Id,
        locationName: plant.Details.Name,
        quantityAvailable: 50,
        eventDate: '2024-03-02T08:00:00Z',
      },
    ]);
    const before = await get(`ProductIds=${salmonId}&AsOf=2024-02-01T00:00:00Z`);
    expect(before.body).toEqual({ products: [] });
    const invalid = await get(`ProductIds=${salmonId}&AsOf=yesterday`);
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.errors)).toEqual(['AsOf']);
  });

  it('refuses a leap-second AsOf (valid RFC 3339, not a time it can compare with) with a 400 naming AsOf', async () => {
    const leap = await get(`ProductIds=${salmonId}&AsOf=2016-12-31T23:59:60Z`);
    expect(leap.status).toBe(400);
    expect(leap.body.errors).toEqual({
      AsOf: ['AsOf 2016-12-31T23:59:60Z is not a time this service can compare with.'],
    });
  });

  it('honours Accept: text/plain with the same JSON as text', async () => {
    const response = await get(`ProductIds=${codId}`, { Accept: 'text/plain' });
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(JSON.parse(response.text)).toEqual((await get(`ProductIds=${codId}`)).body);
  });

  it("never shows another account's inventory, even by its service ids", async () => {
    const other = await createAccount('inventory-other');
    const response = await request('GET', `/Integration/Inventory?ProductIds=${salmonId}&LocationIds=${plantId}`, {
      key: other.key,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ products: [] });
  });

  it('quantityAvailable is exactly what a new consuming event at that time may take', async () => {
    const tooMuch = await client(account.key).post('/Integration/Events', {
      Events: [ship(plant, customer, '2024-03-02T09:00:00', [lot(salmon, 'S-1', 51)])],
    });
    expect(tooMuch.status).toBe(400);
    await record(account.key, ship(plant, customer, '2024-03-02T09:00:00', [lot(salmon, 'S-1', 50)]));
    const after = await get(`ProductIds=${salmonId}&LocationIds=${plantId}`);
    expect(
      after.body.products[0].lots[0].inventory.map((r: { quantityAvailable: number }) => r.quantityAvailable),
    ).toEqual([0, 0, 0, 100]);
  });

  describe('lines of one event on one lot and location', () => {
    const available = async (asOf: string) =>
      (await get(`ProductIds=${codId}&LocationIds=${plantId}&AsOf=${asOf}`)).body.products[0].lots[0].inventory[0]
        .quantityAvailable;

    it('add up: two lines of 10 and 20 leave 30, and 30 can be shipped', async () => {
      await record(account.key, commission(plant, '2024-06-01T08:00:00', [lot(cod, 'TWO', 10), lot(cod, 'TWO', 20)]));
      expect(await available('2024-06-01T08:00:00Z')).toBe(30);
      await record(account.key, ship(plant, customer, '2024-06-01T09:00:00', [lot(cod, 'TWO', 30)]));
      expect(await available('2024-06-01T09:00:00Z')).toBe(0);
    });

    it('count in their order: a transform of 60 into 3 of the same lot leaves 43, and 40 before it', async () => {
      await record(account.key, commission(plant, '2024-07-01T08:00:00', [lot(cod, 'SAME', 100)]));
      await record(account.key, transform(plant, '2024-07-03T08:00:00', [lot(cod, 'SAME', 60)], [lot(cod, 'SAME', 3)]));
      expect(await available('2024-07-03T08:00:00Z')).toBe(43);
      // Before the transform only 40 may go: it takes 60 of what is there before it gives 3 back.
      expect(await available('2024-07-02T08:00:00Z')).toBe(40);
      const tooMuch = await client(account.key).post('/Integration/Events', {
        Events: [ship(plant, customer, '2024-07-02T08:00:00', [lot(cod, 'SAME', 41)])],
      });
      expect(tooMuch.status).toBe(400);
    });
  });
});
