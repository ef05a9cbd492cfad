import { createAccount, type TestAccount } from '../factories/accounts';
import { uploadDocument } from '../factories/documents';
import {
  aggregation,
  commission,
  decommission,
  instance,
  location,
  observe,
  receive,
  ship,
  transform,
  uid,
} from '../factories/events';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';
import { fromScaled, toScaled } from '../../domain/decimal';
import { computeTimeline, Timeline } from '../../domain/inventory-timeline';
import { availableNow, countEvents, timelineOf } from '../helpers/inventory';

const post = (account: TestAccount, events: unknown[], headers?: Record<string, string>) =>
  client(account.key).post('/Integration/Events', { Events: events }, headers);
const availableOf = async (account: TestAccount, product: string, lot: string, location: string) =>
  (await timelineOf(account.id, product, lot, location)).map((r) => Number(r.available));

describe('POST /Integration/Events (sync)', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await createAccount('events');
  });

  it('a commission answers the SPEC.md result element and adds to inventory', async () => {
    const lot = uid('LOT');
    const event = commission({ location: 'DOCK', time: '2024-03-01T15:00:00Z' }, instance('SALMON', lot, 100.5));
    const response = await post(account, [event]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: expect.any(String),
      batchId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      result: [
        {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          externalEventId: event.Id,
          type: 'Commission',
          status: 'Created',
          eventDate: '2024-03-01T15:00:00+00:00',
          productInstances: [{ productId: 'SALMON', lotSerial: lot, quantity: 100.5 }],
          documentsNotAttached: null,
        },
      ],
    });
    expect(await availableNow(account.id, 'SALMON', lot, 'DOCK')).toBe(100.5);
    const { rows } = await sql().query('SELECT urn FROM events WHERE id = $1', [response.body.result[0].id]);
    expect(rows[0].urn).toBe(`urn:uuid:${response.body.result[0].id}`);
  });

  it('reads an EventTime without offset in EventTimeZone, and lets an offset in EventTime win', async () => {
    const local = {
      ...commission({ location: 'DOCK', time: '2024-03-01T10:00:00' }, instance('SALMON', uid('LOT'), 1)),
      EventTimeZone: '-05:00',
    };
    const offset = {
      ...commission({ location: 'DOCK', time: '2024-03-01T10:00:00+01:00' }, instance('SALMON', uid('LOT'), 1)),
      EventTimeZone: '-05:00',
    };
    const response = await post(account, [local, offset]);
    expect(response.status).toBe(200);
    expect(response.body.result.map((r: { eventDate: string }) => r.eventDate)).toEqual([
      '2024-03-01T15:00:00+00:00',
      '2024-03-01T09:00:00+00:00',
    ]);
  });

  it.each([
    ['a missing EventTime', { EventTime: undefined }, 'EventTime', 'Required'],
    ['a malformed EventTime', { EventTime: '2024-02-30T10:00:00' }, 'EventTime', 'InvalidValue'],
    [
      'an EventTime in the year 10000 in UTC',
      { EventTime: '9999-12-31T23:59:59', EventTimeZone: '-12:00' },
      'EventTime',
      'InvalidValue',
    ],
    ['a missing EventTimeZone', { EventTimeZone: undefined }, 'EventTimeZone', 'Required'],
    ['a malformed EventTimeZone', { EventTimeZone: 'Mars/Olympus' }, 'EventTimeZone', 'InvalidValue'],
    ['DocumentIds as a plain string', { DocumentIds: 'DOC-1' }, 'DocumentIds', 'InvalidValue'],
    [
      'a new product whose GTIN is no GTIN',
      {
        ProductInstances: [
          {
            ...instance('SALMON', 'LOT-GTIN', 1),
            Product: { Id: 'BAD-GTIN', Details: { ...instance('BAD-GTIN', 'L', 1).Product.Details, GTIN: '12345' } },
          },
        ],
      },
      'ProductInstances[0].Product.Details.GTIN',
      'InvalidValue',
    ],
    [
      'a new location whose Gln is no GLN',
      { Location: { Id: 'BAD-GLN', Details: { ...location('BAD-GLN').Details, Gln: '9521141000000' } } },
      'Location.Details.Gln',
      'InvalidValue',
    ],
    [
      'a Quantity with digits past 12 decimal places',
      { ProductInstances: [{ ...instance('SALMON', 'LOT-TINY', 1), Quantity: 1e-20 }] },
      'ProductInstances[0].Quantity',
      'InvalidValue',
    ],
  ])('%s is a 400 naming the field, and nothing is stored', async (_name, change, field, code) => {
    const event = {
      ...commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 1)),
      ...change,
    };
    const before = await countEvents(account.id);
    const response = await post(account, [event]);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      result: [],
      errors: [expect.objectContaining({ index: 0, eventId: event.Id, code, field })],
    });
    expect(await countEvents(account.id)).toBe(before);
  });

  it('each event type moves inventory as DESIGN.md says', async () => {
    const lot = uid('LOT');
    const out = uid('OUT');
    const at = (h: number) => `2024-04-01T${String(h).padStart(2, '0')}:00:00Z`;
    const response = await post(account, [
      commission({ location: 'PLANT', time: at(1) }, instance('COD', lot, 100)),
      receive({ location: 'PLANT', time: at(2) }, instance('COD', lot, 20)),
      ship({ location: 'PLANT', time: at(3) }, instance('COD', lot, 30)),
      decommission({ location: 'PLANT', time: at(4) }, instance('COD', lot, 5)),
      transform({ location: 'PLANT', time: at(5) }, [instance('COD', lot, 10)], [instance('COD-FILLET', out, 8)]),
      observe({ location: 'PLANT', time: at(6) }, instance('COD', lot, 75)),
      aggregation('aggregation', { location: 'PLANT', time: at(7) }, uid('PALLET'), instance('COD', lot, 75)),
      aggregation('disaggregation', { location: 'PLANT', time: at(8) }, uid('PALLET'), instance('COD', lot, 75)),
    ]);
    expect(response.status).toBe(200);
    expect(response.body.result.map((r: { type: string }) => r.type)).toEqual([
      'Commission',
      'Receive',
      'Ship',
      'Decommission',
      'Transform',
      'Observe',
      'Aggregation',
      'Disaggregation',
    ]);
    const records = await timelineOf(account.id, 'COD', lot, 'PLANT');
    expect(records.map((r) => Number(r.delta))).toEqual([100, 20, -30, -5, -10]);
    expect(records.map((r) => Number(r.balance))).toEqual([100, 120, 90, 85, 75]);
    expect(records.map((r) => Number(r.available))).toEqual([75, 75, 75, 75, 75]);
    expect(await availableOf(account, 'COD-FILLET', out, 'PLANT')).toEqual([8]);
    // Transform reports its inputs, then its outputs.
    expect(response.body.result[4].productInstances).toEqual([
      { productId: 'COD', lotSerial: lot, quantity: 10 },
      { productId: 'COD-FILLET', lotSerial: out, quantity: 8 },
    ]);
  });

  it('SPEC.md rule 2: a historical ship of 50 between records of 100 and 200 leaves 50 and 150', async () => {
    const lot = uid('LOT');
    expect(
      (
        await post(account, [
          commission({ location: 'DOCK', time: '2024-05-01T00:00:00Z' }, instance('TUNA', lot, 100)),
        ])
      ).status,
    ).toBe(200);
    expect(
      (
        await post(account, [
          commission({ location: 'DOCK', time: '2024-05-03T00:00:00Z' }, instance('TUNA', lot, 100)),
        ])
      ).status,
    ).toBe(200);
    expect(await availableOf(account, 'TUNA', lot, 'DOCK')).toEqual([100, 200]);
    expect(
      (await post(account, [ship({ location: 'DOCK', time: '2024-05-02T00:00:00Z' }, instance('TUNA', lot, 50))]))
        .status,
    ).toBe(200);
    expect(await availableOf(account, 'TUNA', lot, 'DOCK')).toEqual([50, 50, 150]);
  });

  it('SPEC.md rule 3: an earlier consuming event may use only what later ones leave', async () => {
    const lot = uid('LOT');
    expect(
      (
        await post(account, [
          commission({ location: 'DOCK', time: '2024-06-01T00:00:00Z' }, instance('TUNA', lot, 100)),
        ])
      ).status,
    ).toBe(200);
    expect(
      (await post(account, [ship({ location: 'DOCK', time: '2024-06-10T00:00:00Z' }, instance('TUNA', lot, 80))]))
        .status,
    ).toBe(200);
    const tooMuch = ship({ location: 'DOCK', time: '2024-06-05T00:00:00Z' }, instance('TUNA', lot, 30));
    const rejected = await post(account, [tooMuch]);
    expect(rejected.status).toBe(400);
    expect(rejected.body.errors).toEqual([
      expect.objectContaining({
        index: 0,
        eventId: tooMuch.Id,
        code: 'InsufficientInventory',
        product: 'TUNA',
        lotSerial: lot,
        location: 'DOCK',
        requested: 30,
        available: 20,
      }),
    ]);
    expect(
      (await post(account, [ship({ location: 'DOCK', time: '2024-06-05T00:00:00Z' }, instance('TUNA', lot, 20))]))
        .status,
    ).toBe(200);
    expect(await availableOf(account, 'TUNA', lot, 'DOCK')).toEqual([0, 0, 0]);
  });

  it('the stored timeline equals domain/inventory-timeline on random historical inserts', async () => {
    const lot = uid('LOT');
    const model = new Timeline();
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let batch = 0; batch < 4; batch++) {
      const events = [];
      for (let i = 0; i < 8; i++) {
        const time = Date.UTC(2024, 9, 1) + Math.floor(random() * 1000) * 60_000;
        const at = new Date(time).toISOString();
        const quantity = Math.round(random() * 1000) / 100;
        if (random() < 0.5) {
          model.add(time, toScaled(quantity));
          events.push(commission({ location: 'DOCK', time: at }, instance('HALIBUT', lot, quantity)));
        } else {
          const available = model.availableAt(time);
          const take = toScaled(quantity) > available ? available : toScaled(quantity);
          if (take <= 0n) continue;
          model.consume(time, take);
          events.push(ship({ location: 'DOCK', time: at }, instance('HALIBUT', lot, Number(fromScaled(take)))));
        }
      }
      if (events.length) expect((await post(account, events)).status).toBe(200);
    }
    const { rows } = await sql().query(
      `SELECT r.event_time, r.event_seq, r.delta::text AS delta, r.balance::text AS balance, r.available::text AS available
         FROM inventory_records r JOIN products p ON p.id = r.product_id
        WHERE r.account_id = $1 AND p.external_id = 'HALIBUT' AND r.lot_serial = $2 ORDER BY r.event_time, r.event_seq`,
      [account.id, lot],
    );
    const expected = computeTimeline(
      rows.map((r) => ({ time: r.event_time.getTime(), seq: BigInt(r.event_seq), delta: toScaled(r.delta) })),
    );
    expect(rows.map((r) => [fromScaled(toScaled(r.balance)), fromScaled(toScaled(r.available))])).toEqual(
      expected.map((p) => [fromScaled(p.balance), fromScaled(p.available)]),
    );
    expect(expected.map((p) => fromScaled(p.available))).toEqual(model.points().map((p) => fromScaled(p.available)));
  });

  it('a consuming event larger than available is rejected and the whole batch stores nothing', async () => {
    const lot = uid('LOT');
    const before = await countEvents(account.id);
    const response = await post(account, [
      commission({ location: 'DOCK', time: '2024-07-01T00:00:00Z' }, instance('HAKE', lot, 10)),
      ship({ location: 'DOCK', time: '2024-07-02T00:00:00Z' }, instance('HAKE', lot, 6)),
      ship({ location: 'DOCK', time: '2024-07-03T00:00:00Z' }, instance('HAKE', lot, 6)),
    ]);
    expect(response.status).toBe(400);
    expect(response.body.result).toEqual([]);
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        index: 2,
        code: 'InsufficientInventory',
        requested: 6,
        available: 4,
        field: 'ProductInstances[0].Quantity',
      }),
    ]);
    expect(await countEvents(account.id)).toBe(before);
    expect(await timelineOf(account.id, 'HAKE', lot, 'DOCK')).toEqual([]);
  });

  it('nothing at or before the event time means nothing available', async () => {
    const lot = uid('LOT');
    expect(
      (await post(account, [commission({ location: 'DOCK', time: '2024-08-02T00:00:00Z' }, instance('HAKE', lot, 10))]))
        .status,
    ).toBe(200);
    const response = await post(account, [
      ship({ location: 'DOCK', time: '2024-08-01T00:00:00Z' }, instance('HAKE', lot, 1)),
    ]);
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({ code: 'InsufficientInventory', available: 0 });
  });

  it('a Serial product counts each instance as 1 whatever Quantity says', async () => {
    const serial = uid('SN');
    const response = await post(account, [
      commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('TAGGED-TUNA', serial, 7, 'Serial')),
    ]);
    expect(response.status).toBe(200);
    expect(response.body.result[0].productInstances[0].quantity).toBe(1);
    expect(await availableNow(account.id, 'TAGGED-TUNA', serial, 'DOCK')).toBe(1);
  });

  it('duplicate event ids, in the batch or already stored, are DuplicateEventId', async () => {
    const first = commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 1));
    expect((await post(account, [first])).status).toBe(200);
    const again = await post(account, [first]);
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([
      expect.objectContaining({ index: 0, eventId: first.Id, code: 'DuplicateEventId', field: 'Id' }),
    ]);
    const twice = commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 1));
    const inBatch = await post(account, [twice, twice]);
    expect(inBatch.status).toBe(400);
    expect(inBatch.body.errors).toEqual([expect.objectContaining({ index: 1, code: 'DuplicateEventId' })]);
  });

  it('an unknown product or location without Details is UnknownProduct / UnknownLocation', async () => {
    const event = commission(
      { location: 'DOCK', time: '2024-03-01T00:00:00Z' },
      { Quantity: 1, LotSerial: 'L', Product: { Id: uid('NOPE') } },
    );
    event.Location = { Id: uid('NOWHERE') };
    const response = await post(account, [event]);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ index: 0, code: 'UnknownProduct', field: 'ProductInstances[0].Product.Id' }),
        expect.objectContaining({ index: 0, code: 'UnknownLocation', field: 'Location.Id' }),
      ]),
    );
  });

  it('a product Urn, even one the account already uses, is not a field of the batch-style shape: UnknownField, nothing stored', async () => {
    const first = instance(uid('COD'), uid('LOT'), 1);
    expect((await post(account, [commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, first)])).status).toBe(
      200,
    );
    const { rows } = await sql().query('SELECT urn FROM products WHERE account_id = $1 AND external_id = $2', [
      account.id,
      first.Product.Id,
    ]);
    const clash = instance(uid('HADDOCK'), uid('LOT'), 1);
    const event = commission(
      { location: 'DOCK', time: '2024-03-01T00:00:00Z' },
      { ...clash, Product: { ...clash.Product, Urn: rows[0].urn } },
    );
    const before = await countEvents(account.id);
    const response = await post(account, [event]);
    expect(response.status).toBe(400);
    // URNs name entities on POST /Integration/JSON; the batch-style shape names them by Id.
    expect(response.body.errors).toEqual([
      expect.objectContaining({ index: 0, code: 'UnknownField', field: 'ProductInstances[0].Product.Urn' }),
    ]);
    expect(await countEvents(account.id)).toBe(before);
  });

  it('attaches documents by id ignoring case and reports the ones not found', async () => {
    const docId = uid('DOC');
    await uploadDocument(account.key, docId);
    const other = await createAccount('events-other');
    const foreign = uid('DOC');
    await uploadDocument(other.key, foreign);
    const response = await post(account, [
      commission(
        { location: 'DOCK', time: '2024-03-01T00:00:00Z', documentIds: [docId.toLowerCase(), 'DOC-MISSING', foreign] },
        instance('SALMON', uid('LOT'), 1),
      ),
      commission(
        { location: 'DOCK', time: '2024-03-01T00:00:00Z', documentIds: [docId.toUpperCase()] },
        instance('SALMON', uid('LOT'), 1),
      ),
      commission(
        { location: 'DOCK', time: '2024-03-01T00:00:00Z', documentIds: [] },
        instance('SALMON', uid('LOT'), 1),
      ),
    ]);
    expect(response.status).toBe(200);
    expect(response.body.result.map((r: { documentsNotAttached: unknown }) => r.documentsNotAttached)).toEqual([
      [
        { documentId: 'DOC-MISSING', reason: 'DocumentNotFound' },
        { documentId: foreign, reason: 'DocumentNotFound' },
      ],
      null,
      null,
    ]);
    const { rows } = await sql().query(
      'SELECT ed.event_id FROM event_documents ed JOIN documents d ON d.id = ed.document_id WHERE d.account_id = $1 AND d.document_id = $2',
      [account.id, docId],
    );
    expect(rows).toHaveLength(2);
  });

  it('an Idempotency-Key replays the first result and stores nothing new', async () => {
    const key = uid('key');
    const event = commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 3));
    const first = await post(account, [event], { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    const before = await countEvents(account.id);
    const second = await post(account, [event], { 'Idempotency-Key': key });
    expect(second.status).toBe(200);
    expect(second.body.result).toEqual(first.body.result);
    expect(await countEvents(account.id)).toBe(before);
  });

  it("an event's new location is checked like POST /Integration/Locations: coordinates come in pairs, and are listed as numbers", async () => {
    const id = uid('GEO');
    const withCoordinates = (GeoCoordinates: object) => {
      const event = commission({ location: id, time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 1));
      const details = (event.Location as { Details: object }).Details;
      return { ...event, Location: { Id: id, Details: { ...details, Address: { GeoCoordinates } } } };
    };
    const half = await post(account, [withCoordinates({ Latitude: 59.9 })]);
    expect(half.status).toBe(400);
    expect(half.body.errors).toEqual([
      expect.objectContaining({ field: 'Location.Details.Address.GeoCoordinates.Longitude', code: 'Required' }),
    ]);

    expect((await post(account, [withCoordinates({ Latitude: 59.9, Longitude: 10.7 })])).status).toBe(200);
    const listed = await client(account.key).get(`/Integration/Locations/${id}`);
    expect(listed.body.details.address.geoCoordinates).toEqual({ latitude: 59.9, longitude: 10.7 });
  });

  it('an Idempotency-Key reused with another body is a 422 naming the key, and stores nothing', async () => {
    const key = uid('key');
    const event = commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 3));
    expect((await post(account, [event], { 'Idempotency-Key': key })).status).toBe(200);
    const before = await countEvents(account.id);
    const other = { ...event, Id: uid('other') };
    const reused = await post(account, [other], { 'Idempotency-Key': key });
    expect(reused.status).toBe(422);
    expect(reused.body.errors['Idempotency-Key'][0]).toContain(key);
    expect(await countEvents(account.id)).toBe(before);
    // The same body with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(event).reverse());
    expect((await post(account, [reordered], { 'Idempotency-Key': key })).status).toBe(200);
  });

  it('20 concurrent requests consuming the same lot never over-consume', async () => {
    const lot = uid('LOT');
    expect(
      (
        await post(account, [
          commission({ location: 'DOCK', time: '2024-09-01T00:00:00Z' }, instance('MACKEREL', lot, 100)),
        ])
      ).status,
    ).toBe(200);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(account, [
          ship(
            { location: 'DOCK', time: `2024-09-02T00:00:${String(i).padStart(2, '0')}Z` },
            instance('MACKEREL', lot, 7),
          ),
        ]),
      ),
    );
    const accepted = responses.filter((r) => r.status === 200).length;
    expect(
      responses.every(
        (r) => r.status === 200 || (r.status === 400 && r.body.errors[0].code === 'InsufficientInventory'),
      ),
    ).toBe(true);
    expect(accepted).toBe(14);
    const records = await timelineOf(account.id, 'MACKEREL', lot, 'DOCK');
    expect(records.reduce((sum, r) => sum + Number(r.delta), 0)).toBe(2);
    expect(records.every((r) => Number(r.available) >= 0)).toBe(true);
  });
});
