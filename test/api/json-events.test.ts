import { createAccount, type TestAccount } from '../factories/accounts';
import { uid } from '../factories/events';
import { jsonCommission, jsonInstance, jsonTransform, urnOf } from '../factories/json-events';
import { rowCounts, sql } from '../helpers/db';
import { client } from '../helpers/http';
import { availableNow } from '../helpers/inventory';

const post = (account: TestAccount, events: unknown[]) =>
  client(account.key).post('/Integration/JSON', { Events: events });

/** Rows of the account in every table a batch may write: a rejected batch must leave them all unchanged. */
const counts = (accountId: string) =>
  rowCounts(accountId, ['events', 'products', 'locations', 'trade_partners', 'inventory_records', 'ledger_entries']);

describe('POST /Integration/JSON', () => {
  let account: TestAccount;
  const productUrn = urnOf('product');
  const outputUrn = urnOf('product');
  const locationUrn = urnOf('location');
  const partnerUrn = urnOf('party');
  const lot = uid('LOT');
  const at = { locationUrn, partnerUrn };

  beforeAll(async () => {
    account = await createAccount('json');
  });

  it('a commission with new entities creates them under their URNs and reports them Created', async () => {
    const event = jsonCommission(at, jsonInstance(productUrn, lot, 100));
    const response = await post(account, [event]);
    expect(response.status).toBe(200);
    const { result } = response.body;
    expect(result.products).toEqual([
      { status: 'Created', id: expect.any(String), name: 'Atlantic cod', urn: productUrn, gtin: '07038010000010' },
    ]);
    expect(result.locations).toEqual([
      {
        status: 'Created',
        id: expect.any(String),
        name: 'Boston plant',
        urn: locationUrn,
        gln: '0614141000012',
        geoCoordinates: { latitude: 42.35, longitude: -71.04 },
      },
    ]);
    expect(result.tradePartners).toEqual([
      { status: 'Created', id: expect.any(String), name: 'ACME Seafood', urn: partnerUrn, pgln: '0614141000005' },
    ]);
    const [entry] = result.events;
    expect(entry).toEqual({
      type: 'Commission',
      eventDate: '2024-03-01T15:00:00+00:00',
      productInstances: [
        {
          quantity: 100,
          lotSerial: lot,
          status: 'Created',
          id: result.products[0].id,
          name: 'Atlantic cod',
          urn: `${productUrn}.lot.${lot}`,
        },
      ],
      status: 'Created',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: event.ExternalEventId,
      urn: `urn:uuid:${entry.id}`,
    });
    expect(response.body.errors).toEqual([]);
    // The URN is the new rows' external id too, so the inventory helpers (and batch-style events) find them by it.
    expect(await availableNow(account.id, productUrn, lot, locationUrn)).toBe(100);
    const { rows } = await sql().query('SELECT payload, urn FROM events WHERE id = $1', [entry.id]);
    expect(rows[0].urn).toBe(`urn:uuid:${entry.id}`);
    expect(rows[0].payload).toMatchObject({
      BizStep: 'urn:epcglobal:cbv:bizstep:commissioning',
      CertificationList: [expect.objectContaining({ CertificationType: 'urn:gdst:certType:harvestCoC' })],
    });
    const ledger = await sql().query('SELECT count(*)::int AS n FROM ledger_entries WHERE event_id = $1', [entry.id]);
    expect(ledger.rows[0].n).toBe(1);
  });

  it('the same entities again with a new event are Skipped, the event and instances Created', async () => {
    const response = await post(account, [jsonCommission(at, jsonInstance(productUrn, uid('LOT'), 5))]);
    expect(response.status).toBe(200);
    const { result } = response.body;
    expect(result.products.map((p: { status: string }) => p.status)).toEqual(['Skipped']);
    expect(result.locations.map((p: { status: string }) => p.status)).toEqual(['Skipped']);
    expect(result.tradePartners.map((p: { status: string }) => p.status)).toEqual(['Skipped']);
    expect(result.events[0]).toMatchObject({
      status: 'Created',
      productInstances: [expect.objectContaining({ status: 'Created', quantity: 5 })],
    });
    const { rows } = await sql().query('SELECT count(*)::int AS n FROM products WHERE account_id = $1 AND urn = $2', [
      account.id,
      productUrn,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it("a UOM of the product unit's kind is read in the product's unit: 22 LBR of a KGM product is 9.97903214", async () => {
    const pounds = uid('LOT');
    const response = await post(account, [jsonCommission(at, jsonInstance(productUrn, pounds, 22, 'lbs'))]);
    expect(response.status).toBe(200);
    expect(response.body.result.events[0].productInstances).toEqual([
      expect.objectContaining({ status: 'Created', quantity: 9.97903214 }),
    ]);
    expect(await availableNow(account.id, productUrn, pounds, locationUrn)).toBe(9.97903214);
  });

  it('a transform consumes the commissioned lot and its new lot is in inventory; a numeric UOM is ignored', async () => {
    const out = uid('OUT');
    const output = {
      ...jsonInstance(outputUrn, out, 40),
      ParentProduct: { ...jsonInstance(outputUrn, out, 40).ParentProduct, Name: 'Cod loins' },
    };
    const event = jsonTransform(
      { ...at, time: '2024-03-02T10:00:00-05:00' },
      [jsonInstance(productUrn, lot, 60, 10)],
      [output],
    );
    const response = await post(account, [event]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ result: 'Success', message: null, errors: [] });
    expect(await availableNow(account.id, productUrn, lot, locationUrn)).toBe(40);
    expect(await availableNow(account.id, outputUrn, out, locationUrn)).toBe(40);
  });

  it('a mixed batch answers the commission shape, listing the transform among its events', async () => {
    const mixedLot = uid('LOT');
    const response = await post(account, [
      jsonCommission({ ...at, time: '2024-04-01T10:00:00Z' }, jsonInstance(productUrn, mixedLot, 10)),
      jsonTransform(
        { ...at, time: '2024-04-01T11:00:00Z' },
        [jsonInstance(productUrn, mixedLot, 10)],
        [jsonInstance(outputUrn, uid('OUT'), 9)],
      ),
    ]);
    expect(response.status).toBe(200);
    expect(response.body.result.events.map((e: { type: string }) => e.type)).toEqual(['Commission', 'Transform']);
    expect(await availableNow(account.id, productUrn, mixedLot, locationUrn)).toBe(0);
  });

  describe('errors: 400 naming the event, field and reason; nothing stored', () => {
    const rejected = async (events: unknown[], expected: object) => {
      const before = await counts(account.id);
      const response = await post(account, events);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        result: [],
        errors: expect.arrayContaining([expect.objectContaining(expected)]),
      });
      expect(await counts(account.id)).toEqual(before);
      return response;
    };

    it('a malformed event (no ExternalEventId, bad EventTime)', async () => {
      const event = jsonCommission(at, jsonInstance(urnOf('product'), uid('LOT'), 1));
      const { ExternalEventId: _id, ...withoutId } = event;
      await rejected([withoutId], { index: 0, code: 'Required', field: 'ExternalEventId' });
      await rejected([{ ...event, EventTime: '2024-02-30T10:00:00-05:00' }], {
        index: 0,
        eventId: event.ExternalEventId,
        code: 'InvalidValue',
        field: 'EventTime',
      });
    });

    it("a BizStep or Disposition that is no URI, a UOM not of the product unit's kind", async () => {
      const event = jsonCommission(at, jsonInstance(urnOf('product'), uid('LOT'), 1, 'CS'));
      await rejected([{ ...event, BizStep: 'fishing' }], { index: 0, code: 'InvalidValue', field: 'BizStep' });
      await rejected([{ ...event, Disposition: 'not a uri' }], {
        index: 0,
        code: 'InvalidValue',
        field: 'Disposition',
      });
      await rejected([event], { index: 0, code: 'InvalidValue', field: 'ProductInstances[0].UOM' });
    });

    it('a new product whose Gtin is no GTIN', async () => {
      const instance = jsonInstance(urnOf('product'), uid('LOT'), 1);
      const bad = { ...instance, ParentProduct: { ...instance.ParentProduct, Gtin: '07038010000017' } };
      await rejected([jsonCommission(at, bad)], {
        index: 0,
        code: 'InvalidValue',
        field: 'ProductInstances[0].ParentProduct.Gtin',
      });
    });

    it('a new location whose Gln is no GLN', async () => {
      const event = jsonCommission(at, jsonInstance(urnOf('product'), uid('LOT'), 1));
      const bad = { ...event, Location: { ...event.Location, Urn: urnOf('location'), Gln: '9521141000000' } };
      await rejected([bad], { index: 0, code: 'InvalidValue', field: 'Location.Gln' });
    });

    it('a Quantity with digits past 12 decimal places', async () => {
      const event = jsonCommission(at, jsonInstance(urnOf('product'), uid('LOT'), 0.1234567890123));
      await rejected([event], { index: 0, code: 'InvalidValue', field: 'ProductInstances[0].Quantity' });
    });

    it.each([
      'urn:example:bizstep:landing',
      'urn:epcglobal:cbv:bizstep:transforming',
      'https://ns.example.com/bizstep/landing',
    ])('a BizStep outside the CBV 2.0 list (%s) is accepted and kept as sent', async (bizStep) => {
      const event = { ...jsonCommission(at, jsonInstance(productUrn, uid('LOT'), 1)), BizStep: bizStep };
      const response = await post(account, [event]);
      expect(response.status).toBe(200);
      const { rows } = await sql().query(
        'SELECT payload FROM events WHERE account_id = $1 AND external_event_id = $2',
        [account.id, event.ExternalEventId],
      );
      expect(JSON.stringify(rows[0].payload)).toContain(bizStep);
    });

    it('an unknown product URN without inline data, named in the error', async () => {
      const unknown = urnOf('product');
      const instance = { ...jsonInstance(unknown, uid('LOT'), 1), ParentProduct: { Urn: unknown } };
      const response = await rejected([jsonCommission(at, instance)], {
        index: 0,
        code: 'UnknownProduct',
        field: 'ProductInstances[0].ParentProduct',
      });
      expect(response.body.errors[0].message).toContain(unknown);
    });

    it('a transform input larger than the available quantity', async () => {
      const event = jsonTransform(
        { ...at, time: '2024-03-03T10:00:00-05:00' },
        [jsonInstance(productUrn, lot, 41)],
        [jsonInstance(outputUrn, uid('OUT'), 41)],
      );
      await rejected([event], {
        index: 0,
        eventId: event.ExternalEventId,
        code: 'InsufficientInventory',
        field: 'InputProducts[0].Quantity',
        requested: 41,
        available: 40,
      });
    });

    it('a repeated ExternalEventId, with new entities in the same batch', async () => {
      const first = jsonCommission(at, jsonInstance(productUrn, uid('LOT'), 1));
      expect((await post(account, [first])).status).toBe(200);
      const again = jsonCommission(
        { id: first.ExternalEventId, locationUrn: urnOf('location'), partnerUrn: urnOf('party') },
        jsonInstance(urnOf('product'), uid('LOT'), 1),
      );
      await rejected([again], {
        index: 0,
        eventId: first.ExternalEventId,
        code: 'DuplicateEventId',
        field: 'ExternalEventId',
      });
    });

    it('an unknown product in one event and an overdraw in another: both errors in one answer', async () => {
      const unknown = urnOf('product');
      const ghost = jsonCommission(at, { ...jsonInstance(unknown, uid('LOT'), 1), ParentProduct: { Urn: unknown } });
      const overdraw = jsonTransform(
        { ...at, time: '2024-03-03T10:00:00-05:00' },
        [jsonInstance(productUrn, lot, 41)],
        [jsonInstance(outputUrn, uid('OUT'), 41)],
      );
      const response = await rejected([ghost, overdraw], {
        index: 0,
        code: 'UnknownProduct',
        field: 'ProductInstances[0].ParentProduct',
      });
      expect(response.body.errors).toEqual([
        expect.objectContaining({ index: 0, code: 'UnknownProduct' }),
        expect.objectContaining({
          index: 1,
          eventId: overdraw.ExternalEventId,
          code: 'InsufficientInventory',
          field: 'InputProducts[0].Quantity',
        }),
      ]);
    });
  });
});
