import http from 'node:http';
import { createAccount, type TestAccount } from '../factories/accounts';
import {
  commission,
  locationPayload,
  newGln,
  productPayload,
  receive,
  record,
  ship,
  transform,
  uid,
  verifyGlnOf,
} from '../factories/trace-events';
import { apiUrl, client } from '../helpers/http';

const line = (product: ReturnType<typeof productPayload>, lot: string, quantity: number) => ({
  product,
  lot,
  quantity,
});

interface Row {
  id: string;
  eventId: string;
  eventType: string;
  productName: string;
  lotSerial: string;
  quantity: number;
  locationName: string;
  companyName: string;
  eventDate: string;
}

const details = async (key: string, query: string) =>
  client(key).get(`/epcis/Events/details?${query}`, { accept: 'application/json' });
const types = (rows: Row[]) => rows.map((r) => r.eventType);

describe('GET /epcis/Events/details in one account', () => {
  let account: TestAccount;
  const plant = locationPayload(uid('PLANT'), { name: 'Plant Bergen' });
  const customer = locationPayload(uid('CUST'), { connectionType: 'BUYER', name: 'Customer Oslo' });
  const fish = productPayload(uid('FISH'), 'Open', 'Whole cod');
  const fillet = productPayload(uid('FILLET'), 'Open', 'Cod fillet');
  const lotA = uid('LOT-A');
  const lotB = uid('LOT-B');
  const commissionId = uid('COMM');

  beforeAll(async () => {
    account = await createAccount('details');
    await record(
      account.key,
      commission(plant, '2024-05-01T06:00:00', [line(fish, lotA, 100)], { PurchaseOrder: 'PO-1', Id: commissionId }),
      ship(plant, customer, '2024-05-02T06:00:00', [line(fish, lotA, 10)], { PurchaseOrder: 'PO-2' }),
      ship(plant, customer, '2024-05-03T06:00:00', [line(fish, lotA, 10)], { PurchaseOrder: 'PO-2' }),
      transform(plant, '2024-05-04T06:00:00', [line(fish, lotA, 50)], [line(fillet, lotB, 20)]),
      ship(plant, customer, '2024-05-05T06:00:00', [line(fillet, lotB, 5)]),
    );
  });

  it('lists the lot newest first with every field of the event-detail record', async () => {
    const response = await details(account.key, `LotSerial=${lotA}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      totalPages: 1,
      pageNumber: 1,
      pageSize: 20,
      totalItems: 4,
      hasNextPage: false,
      hasPreviousPage: false,
    });
    const rows = response.body.results as Row[];
    expect(types(rows)).toEqual(['Transform', 'Ship', 'Ship', 'Commission']);
    expect(rows[3]).toEqual({
      id: expect.any(String),
      eventId: expect.any(String),
      externalEventId: commissionId,
      eventType: 'Commission',
      externalProductId: fish.Id,
      productName: 'Whole cod',
      lotSerial: lotA,
      quantity: 100,
      locationName: 'Plant Bergen',
      externalLocationId: plant.Id,
      companyName: plant.Details.TradePartner.Name,
      eventDate: '2024-05-01T06:00:00+00:00',
    });
  });

  it('pages with PageNumber and PageSize', async () => {
    const second = await details(account.key, `LotSerial=${lotA}&PageSize=3&PageNumber=2`);
    expect(second.body).toMatchObject({
      totalPages: 2,
      pageNumber: 2,
      pageSize: 3,
      totalItems: 4,
      hasNextPage: false,
      hasPreviousPage: true,
    });
    expect(types(second.body.results)).toEqual(['Commission']);
    const beyond = await details(account.key, `LotSerial=${lotA}&PageSize=3&PageNumber=5`);
    expect(beyond.body).toMatchObject({ totalItems: 4, results: [] });
  });

  it.each([['PageNumber=0'], ['PageSize=0'], ['PageSize=abc'], ['PageNumber=-1']])('refuses %s', async (param) => {
    const response = await details(account.key, `LotSerial=${lotA}&${param}`);
    expect(response.status).toBe(400);
  });

  it('sorts by eventDate (oldest first), eventType and productName', async () => {
    expect(types((await details(account.key, `LotSerial=${lotA}&SortBy=eventDate`)).body.results)).toEqual([
      'Commission',
      'Ship',
      'Ship',
      'Transform',
    ]);
    expect(types((await details(account.key, `LotSerial=${lotA}&SortBy=eventType`)).body.results)).toEqual([
      'Commission',
      'Ship',
      'Ship',
      'Transform',
    ]);
    const byDateDesc = (await details(account.key, `LotSerial=${lotA}&SortBy=-eventDate`)).body.results as Row[];
    expect(byDateDesc.map((r) => r.eventDate)).toEqual([...byDateDesc.map((r) => r.eventDate)].sort().reverse());
  });

  it('an unknown SortBy is a 400 listing the accepted values', async () => {
    const response = await details(account.key, `LotSerial=${lotA}&SortBy=quantity`);
    expect(response.status).toBe(400);
    expect(response.body.errors.SortBy).toEqual([
      'SortBy must be one of: eventDate, -eventDate, eventType, productName.',
    ]);
  });

  it('filters by PurchaseOrder', async () => {
    const response = await details(account.key, `LotSerial=${lotA}&PurchaseOrder=PO-2`);
    expect(types(response.body.results)).toEqual(['Ship', 'Ship']);
  });

  it('needs LotSerial', async () => {
    const response = await details(account.key, 'PurchaseOrder=PO-2');
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveProperty('LotSerial');
  });

  it('needs the accept header', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${apiUrl()}/epcis/Events/details?LotSerial=${lotA}`,
        { headers: { 'X-API-KEY': account.key } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
  });

  it('after a transform the output lot shows only events from the transform on', async () => {
    const response = await details(account.key, `LotSerial=${lotB}&SortBy=eventDate`);
    expect(types(response.body.results)).toEqual(['Transform', 'Ship']);
    expect(response.body.results[0]).toMatchObject({ productName: 'Cod fillet', quantity: 20 });
  });
});

describe('GET /epcis/Events/details across accounts', () => {
  let supplier: TestAccount;
  let buyer: TestAccount;
  let stranger: TestAccount;
  const gln = newGln();
  const farm = locationPayload(uid('FARM'), { name: 'Farm' });
  // The supplier's record of the buyer's dock: same GLN as the buyer's own location.
  const buyersDockAsSupplierSeesIt = locationPayload(uid('DOCK'), { connectionType: 'BUYER', gln, name: 'Buyer dock' });
  const buyersDock = locationPayload(uid('MYDOCK'), { gln, name: 'My dock' });
  const buyersShop = locationPayload(uid('SHOP'), { connectionType: 'BUYER', name: 'Shop' });
  const openProduct = productPayload(uid('OPEN'), 'Open', 'Open salmon');
  const restrictedProduct = productPayload(uid('RESTRICTED'), 'Restricted', 'Restricted salmon');
  const openLot = uid('OPEN-LOT');
  const restrictedLot = uid('RESTRICTED-LOT');

  beforeAll(async () => {
    [supplier, buyer, stranger] = await Promise.all([
      createAccount('supplier'),
      createAccount('buyer'),
      createAccount('stranger'),
    ]);
    await verifyGlnOf(buyer, gln);
    await record(
      supplier.key,
      commission(farm, '2024-06-01T06:00:00', [
        line(openProduct, openLot, 40),
        line(restrictedProduct, restrictedLot, 40),
      ]),
      ship(farm, buyersDockAsSupplierSeesIt, '2024-06-02T06:00:00', [
        line(openProduct, openLot, 30),
        line(restrictedProduct, restrictedLot, 30),
      ]),
    );
    await record(
      buyer.key,
      receive(buyersDock, '2024-06-02T18:00:00', [line(productPayload(openProduct.Id), openLot, 30)]),
      ship(buyersDock, buyersShop, '2024-06-03T06:00:00', [line(productPayload(openProduct.Id), openLot, 10)]),
    );
    // After the external shipment the supplier keeps working its own remaining stock.
    await record(
      supplier.key,
      ship(farm, buyersDockAsSupplierSeesIt, '2024-06-04T06:00:00', [line(openProduct, openLot, 5)]),
    );
  });

  it('an Open product shows the shipper’s history up to and including the shipment', async () => {
    const rows = (await details(buyer.key, `LotSerial=${openLot}&SortBy=eventDate`)).body.results as Row[];
    expect(rows.map((r) => `${r.eventType}@${r.locationName}`)).toEqual([
      'Commission@Farm',
      'Ship@Farm',
      'Receive@My dock',
      'Ship@My dock',
      'Ship@Farm',
    ]);
  });

  it('names the caller’s own events, products and locations by its own ids too, never another account’s', async () => {
    const rows = (await details(buyer.key, `LotSerial=${openLot}&SortBy=eventDate`)).body.results as (Row &
      Record<'externalEventId' | 'externalProductId' | 'externalLocationId', string | null>)[];
    const own = rows.filter((r) => r.locationName === 'My dock');
    const supplier = rows.filter((r) => r.locationName === 'Farm');
    expect(own).toHaveLength(2);
    for (const row of own)
      expect(row).toMatchObject({
        externalEventId: expect.any(String),
        externalProductId: openProduct.Id,
        externalLocationId: buyersDock.Id,
      });
    expect(supplier.length).toBeGreaterThan(0);
    for (const row of supplier)
      expect(row).toMatchObject({ externalEventId: null, externalProductId: null, externalLocationId: null });
  });

  it('a Restricted product shows only the ship event', async () => {
    const rows = (await details(buyer.key, `LotSerial=${restrictedLot}`)).body.results as Row[];
    expect(rows.map((r) => `${r.eventType}@${r.locationName}`)).toEqual(['Ship@Farm']);
  });

  it('the shipper never sees what happened after the shipment in the other account', async () => {
    const rows = (await details(supplier.key, `LotSerial=${openLot}&SortBy=eventDate`)).body.results as Row[];
    expect(rows.map((r) => `${r.eventType}@${r.locationName}`)).toEqual(['Commission@Farm', 'Ship@Farm', 'Ship@Farm']);
  });

  it('a third account sees nothing', async () => {
    for (const lotSerial of [openLot, restrictedLot]) {
      const response = await details(stranger.key, `LotSerial=${lotSerial}`);
      expect(response.body).toMatchObject({ totalItems: 0, results: [] });
    }
  });
});

describe('GET /epcis/Events/details: a GLN grants visibility only once verified', () => {
  it('a shipment to a GLN the receiver merely typed stays private until the operator verifies it', async () => {
    const [supplier, claimant] = await Promise.all([createAccount('supplier'), createAccount('claimant')]);
    const gln = newGln();
    const product = productPayload(uid('COD'), 'Open', 'Cod');
    const lot = uid('LOT');
    const farm = locationPayload(uid('FARM'), { name: 'Farm' });
    await record(
      supplier.key,
      commission(farm, '2024-06-01T06:00:00', [line(product, lot, 10)]),
      ship(farm, locationPayload(uid('DEST'), { connectionType: 'BUYER', gln }), '2024-06-02T06:00:00', [
        line(product, lot, 10),
      ]),
    );
    // The claimant types the GLN on a location of its own: that alone shows it nothing.
    await record(
      claimant.key,
      commission(locationPayload(uid('MINE'), { gln }), '2024-06-03T06:00:00', [
        line(productPayload(uid('OTHER')), uid('LOT'), 1),
      ]),
    );
    expect((await details(claimant.key, `LotSerial=${lot}`)).body).toMatchObject({ totalItems: 0, results: [] });

    await verifyGlnOf(claimant, gln);
    const rows = (await details(claimant.key, `LotSerial=${lot}&SortBy=eventDate`)).body.results as Row[];
    expect(types(rows)).toEqual(['Commission', 'Ship']);
  });
});
