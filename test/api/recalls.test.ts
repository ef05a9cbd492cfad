import { Webhook } from 'standardwebhooks';
import { createAccount } from '../factories/accounts';
import { threeAccountChain } from '../factories/trace-chain';
import {
  commission,
  line,
  locationPayload,
  newGln,
  productPayload,
  receive,
  record,
  ship,
  uid,
} from '../factories/trace-events';
import { client } from '../helpers/http';
import { startReceiver, type Receiver } from '../helpers/receiver';

const byLot = (a: (string | number)[], b: (string | number)[]) => String(a[0]).localeCompare(String(b[0]));

type Chain = Awaited<ReturnType<typeof threeAccountChain>>;

describe('/Integration/Recalls', () => {
  let chain: Chain;
  let retailerHooks: Receiver;
  let farmHooks: Receiver;
  let secrets: { retailer: string; farm: string };
  let recallId: string;

  beforeAll(async () => {
    chain = await threeAccountChain();
    [retailerHooks, farmHooks] = await Promise.all([startReceiver(), startReceiver()]);
    const retailerEndpoint = await client(chain.retailer.key).post('/Integration/Webhooks', {
      Url: retailerHooks.url,
      Events: ['recall.received'],
    });
    const farmEndpoint = await client(chain.farm.key).post('/Integration/Webhooks', {
      Url: farmHooks.url,
      Events: ['recall.acknowledged'],
    });
    secrets = { retailer: retailerEndpoint.body.secret, farm: farmEndpoint.body.secret };
  });
  afterAll(async () => {
    await Promise.all([retailerHooks.close(), farmHooks.close()]);
  });

  it('reaches the accounts the issuer shipped to, and through a consignee that passes it on, the lots made from it', async () => {
    const issued = await client(chain.farm.key).post('/Integration/Recalls', {
      ProductId: chain.products.fishA.Id,
      LotSerial: chain.lot,
      Reason: 'Listeria in a retained sample.',
    });
    expect(issued.status).toBe(201);
    recallId = issued.body.id;
    expect(issued.headers.get('location')).toBe(`/Integration/Recalls/${recallId}`);
    expect(issued.body).toMatchObject({
      role: 'issuer',
      state: 'notified',
      issuer: chain.farm.name,
      productId: chain.products.fishA.Id,
      lotSerial: chain.lot,
      reason: 'Listeria in a retained sample.',
      closed: null,
      // Nothing said: the strictest strategy.
      strategy: {
        depth: 'Consumer',
        effectivenessCheck: { level: 'A', percent: 100 },
        reminders: { everySeconds: 86400, overdueAfter: 3 },
      },
    });
    const holdersOf = (body: { holders: { account: string; passedOnTime: string | null }[] }) =>
      Object.fromEntries(body.holders.map((h) => [h.account, h]));
    let holders = holdersOf(issued.body);
    expect(Object.keys(holders).sort()).toEqual([chain.other.name, chain.processor.name].sort());
    expect(holders[chain.processor.name]).toMatchObject({
      account: chain.processor.name,
      lots: [chain.lot],
      state: 'notified',
      acknowledgement: null,
      tier: 1,
      via: chain.farm.name,
      progress: 'notified',
    });
    expect((await client(chain.retailer.key).get('/Integration/Recalls')).body.totalItems).toBe(0);

    const passed = await client(chain.processor.key).post(`/Integration/Recalls/${recallId}/pass-on`);
    expect(passed.status).toBe(200);
    expect(passed.body.reached).toEqual([
      {
        account: chain.retailer.name,
        lots: [chain.fillet],
        shipped: [{ lotSerial: chain.fillet, quantity: 30, unit: expect.any(String) }],
      },
    ]);
    // Passing on again reaches no one twice.
    expect((await client(chain.processor.key).post(`/Integration/Recalls/${recallId}/pass-on`)).body.reached).toEqual(
      [],
    );

    holders = holdersOf((await client(chain.farm.key).get(`/Integration/Recalls/${recallId}`)).body);
    expect(Object.keys(holders).sort()).toEqual([chain.other.name, chain.processor.name, chain.retailer.name].sort());
    expect(holders[chain.retailer.name]).toMatchObject({
      account: chain.retailer.name,
      lots: [chain.fillet],
      state: 'notified',
      acknowledgement: null,
      tier: 2,
      via: chain.processor.name,
    });
    expect(holders[chain.processor.name].passedOnTime).toEqual(expect.any(String));
  });

  it('tells each holder only what its own traces show: its own lots and holdings', async () => {
    const processor = await client(chain.processor.key).get(`/Integration/Recalls/${recallId}`);
    expect(processor.body).toMatchObject({
      role: 'holder',
      state: 'notified',
      issuer: chain.farm.name,
      reason: 'Listeria in a retained sample.',
      acknowledgement: null,
    });
    expect(
      processor.body.lots
        .map((l: { product: { id: string }; lotSerial: string }) => `${l.product.id}/${l.lotSerial}`)
        .sort(),
    ).toEqual([`${chain.products.fishB.Id}/${chain.lot}`, `${chain.products.filletB.Id}/${chain.fillet}`].sort());
    expect(
      processor.body.holdings
        .map((h: { lotSerial: string; quantityOnHand: number }) => [h.lotSerial, h.quantityOnHand])
        .sort(byLot),
    ).toEqual(
      [
        [chain.fillet, 10],
        [chain.lot, 10],
      ].sort(byLot),
    );
    expect(processor.body.recalled).toEqual([expect.objectContaining({ lotSerial: chain.lot })]);

    const list = await client(chain.retailer.key).get('/Integration/Recalls');
    expect(list.body.results.map((n: { id: string }) => n.id)).toEqual([recallId]);
    const retailer = list.body.results[0];
    expect(retailer.lots).toEqual([
      expect.objectContaining({
        product: expect.objectContaining({ id: chain.products.filletC.Id }),
        lotSerial: chain.fillet,
      }),
    ]);
    expect(retailer.holdings.map((h: { quantityOnHand: number }) => h.quantityOnHand).sort()).toEqual([10, 20]);
    // Nothing of the processor's own records, nor of the other buyer, reaches the retailer.
    const text = JSON.stringify(retailer);
    expect(text).not.toContain('Processor dock');
    expect(text).not.toContain(chain.products.filletB.Id);
    expect(text).not.toContain('Other buyer');

    const stranger = await createAccount('recall-stranger');
    expect((await client(stranger.key).get(`/Integration/Recalls/${recallId}`)).status).toBe(404);
    expect((await client(stranger.key).get('/Integration/Recalls')).body.totalItems).toBe(0);
  });

  it('sends recall.received to the holder’s webhooks, signed', async () => {
    const [delivery] = await retailerHooks.waitFor(1);
    const payload = new Webhook(secrets.retailer).verify(delivery.body, {
      'webhook-id': String(delivery.headers['webhook-id']),
      'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
      'webhook-signature': String(delivery.headers['webhook-signature']),
    }) as { type: string; data: { id: string; issuer: string; lots: unknown[] } };
    expect(payload.type).toBe('recall.received');
    expect(payload.data).toMatchObject({ id: recallId, issuer: chain.farm.name });
    expect(JSON.stringify(payload.data)).not.toContain('Processor dock');
  });

  it('lets a holder acknowledge; the issuer sees who did, per holder and lot, and hears recall.acknowledged', async () => {
    const refused = await client(chain.retailer.key).post(`/Integration/Recalls/${recallId}/acknowledge`, {
      QuantityOnHand: -1,
      Action: 'x',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveProperty('QuantityOnHand');
    const unknown = await client(chain.retailer.key).post(`/Integration/Recalls/${recallId}/acknowledge`, {
      QuantityOnHand: 1,
      Action: 'x',
      Note: 'y',
    });
    expect(unknown.body.errors).toHaveProperty('Note');
    expect(
      (
        await client(chain.farm.key).post(`/Integration/Recalls/${recallId}/acknowledge`, {
          QuantityOnHand: 0,
          Action: 'x',
        })
      ).status,
    ).toBe(404);

    const acknowledged = await client(chain.retailer.key).post(`/Integration/Recalls/${recallId}/acknowledge`, {
      QuantityOnHand: 30,
      Action: 'Pulled from shelves.',
    });
    expect(acknowledged.status).toBe(200);
    expect(acknowledged.body.state).toBe('acknowledged');
    expect(acknowledged.body.acknowledgement).toEqual({
      time: expect.any(String),
      quantityOnHand: 30,
      action: 'Pulled from shelves.',
      lots: null,
    });

    const issuer = await client(chain.farm.key).get(`/Integration/Recalls/${recallId}`);
    const byName = Object.fromEntries(issuer.body.holders.map((h: { account: string }) => [h.account, h]));
    expect(byName[chain.retailer.name]).toMatchObject({
      account: chain.retailer.name,
      lots: [chain.fillet],
      state: 'acknowledged',
      progress: 'acknowledged',
      acknowledgement: { time: expect.any(String), quantityOnHand: 30, action: 'Pulled from shelves.', lots: null },
    });
    expect(byName[chain.processor.name].acknowledgement).toBeNull();
    // Some holders have not answered yet: the recall stays notified.
    expect(issuer.body.state).toBe('notified');

    const [delivery] = await farmHooks.waitFor(1);
    const payload = new Webhook(secrets.farm).verify(delivery.body, {
      'webhook-id': String(delivery.headers['webhook-id']),
      'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
      'webhook-signature': String(delivery.headers['webhook-signature']),
    }) as { type: string; data: Record<string, unknown> };
    expect(payload).toMatchObject({
      type: 'recall.acknowledged',
      data: {
        id: recallId,
        holder: chain.retailer.name,
        lots: [chain.fillet],
        acknowledgement: { quantityOnHand: 30 },
      },
    });
  });

  it('lists the recalls an account issued, newest first, each with its state and its holders’ states', async () => {
    const list = await client(chain.farm.key).get('/Integration/Recalls/issued');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ pageNumber: 1, totalItems: 1 });
    const [listed] = list.body.results;
    expect(listed).toEqual((await client(chain.farm.key).get(`/Integration/Recalls/${recallId}`)).body);
    expect(listed.holders.map((h: { state: string }) => h.state).sort()).toEqual([
      'acknowledged',
      'notified',
      'notified',
    ]);
    // Once every holder has answered, the recall reads acknowledged.
    for (const holder of [chain.processor, chain.other])
      expect(
        (
          await client(holder.key).post(`/Integration/Recalls/${recallId}/acknowledge`, {
            QuantityOnHand: 0,
            Action: 'None left.',
          })
        ).status,
      ).toBe(200);
    expect((await client(chain.farm.key).get('/Integration/Recalls/issued')).body.results[0].state).toBe(
      'acknowledged',
    );
    // A holder issued none: its list is empty, and another account's recall is not in it.
    expect((await client(chain.retailer.key).get('/Integration/Recalls/issued')).body).toMatchObject({
      totalItems: 0,
      results: [],
    });
    expect((await client(chain.farm.key).get('/Integration/Recalls/issued?PageSize=0')).status).toBe(400);
  });

  it('refuses a product the issuer does not have, naming ProductId', async () => {
    const refused = await client(chain.farm.key).post('/Integration/Recalls', {
      ProductId: 'NOPE',
      LotSerial: 'L',
      Reason: 'r',
    });
    expect(refused.status).toBe(404);
    expect(refused.body.errors).toHaveProperty('ProductId');
    const missing = await client(chain.farm.key).post('/Integration/Recalls', { ProductId: 'NOPE', LotSerial: 'L' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toHaveProperty('Reason');
  });

  it('refuses a lot no event of the issuer names, naming LotSerial: a typo would read as a recall that reached no one', async () => {
    const refused = await client(chain.farm.key).post('/Integration/Recalls', {
      ProductId: chain.products.fishA.Id,
      LotSerial: 'NO-SUCH-LOT',
      Reason: 'r',
    });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({
      code: 'unknown-lot-or-serial',
      errors: { LotSerial: [`No event of this account names lot NO-SUCH-LOT of product ${chain.products.fishA.Id}.`] },
    });
  });

  it('does not reach an account whose receiving GLN is not verified as its own: its trace could not show the recall', async () => {
    const [issuer, unverified] = [await createAccount('recall-issuer'), await createAccount('recall-unverified')];
    const gln = newGln();
    const fish = productPayload(uid('FISH'));
    const lot = uid('L');
    const site = locationPayload(uid('SITE'), { name: 'Site' });
    await record(
      issuer.key,
      commission(site, '2024-07-01T06:00:00', [line(fish, lot, 10)]),
      ship(
        site,
        locationPayload(uid('BUYER'), { connectionType: 'BUYER', gln, name: 'Buyer (issuer record)' }),
        '2024-07-02T06:00:00',
        [line(fish, lot, 10)],
      ),
    );
    await record(
      unverified.key,
      receive(locationPayload(uid('DOCK'), { gln, name: 'Unverified dock' }), '2024-07-02T18:00:00', [
        line(productPayload(uid('U-FISH')), lot, 10),
      ]),
    );
    const issued = await client(issuer.key).post('/Integration/Recalls', {
      ProductId: fish.Id,
      LotSerial: lot,
      Reason: 'r',
    });
    expect(issued.status).toBe(201);
    expect(issued.body.holders).toEqual([]);
    // Nobody else to tell: the recall is open, for the issuer's own stock only.
    expect(issued.body.state).toBe('open');
    expect((await client(unverified.key).get('/Integration/Recalls')).body.totalItems).toBe(0);
  });
});
