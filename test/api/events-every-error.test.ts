import { createAccount, type TestAccount } from '../factories/accounts';
import { commission, instance, location, ship, uid } from '../factories/events';
import { jsonCommission, jsonInstance, jsonTransform, urnOf } from '../factories/json-events';
import { cjk } from '../factories/master-data';
import { rowCounts } from '../helpers/db';
import { client } from '../helpers/http';

/**
 * Issue 23, "every error of a batch in one answer": a request whose schema or rules refuse one event is
 * still checked for the other events' unknown master data, duplicate ids and inventory before the 400,
 * so one answer lists every problem of every event; sync and async alike, and nothing is stored.
 */
const ENDPOINTS = ['/Integration/Events', '/Integration/Events/async'] as const;
const STORED = ['events', 'products', 'locations', 'inventory_records', 'batches'] as const;

interface ListedError {
  index: number | null;
  eventId: string | null;
  code: string;
  field: string;
  message: string;
}

describe('a refused request lists every problem of every event at once', () => {
  let account: TestAccount;
  let lot: string;
  let storedId: string;
  beforeAll(async () => {
    account = await createAccount('every-error');
    lot = uid('LOT');
    const stored = commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', lot, 50));
    storedId = stored.Id;
    expect((await client(account.key).post('/Integration/Events', { Events: [stored] })).status).toBe(200);
  });

  async function refused(endpoint: string, events: unknown[]): Promise<ListedError[]> {
    const before = await rowCounts(account.id, STORED);
    const response = await client(account.key).post(endpoint, { Events: events });
    expect(response.status).toBe(400);
    const errors = response.body.errors as ListedError[];
    expect(response.body).toEqual({
      message: `The batch was rejected: ${errors.length} error${errors.length === 1 ? '' : 's'}; nothing was stored.`,
      result: [],
      errors,
    });
    expect(await rowCounts(account.id, STORED)).toEqual(before);
    return errors;
  }
  const listed = (errors: ListedError[]) => errors.map((e) => [e.index, e.code, e.field]);

  it.each(ENDPOINTS)('%s: a bad EventTime in event 0 and an overdraw in event 1', async (endpoint) => {
    const bad = commission({ location: 'DOCK', time: '2024-13-45T10:00:00Z' }, instance('SALMON', uid('LOT'), 5));
    // Its DestinationLocation is new: the checks create it, and the rollback takes it away again.
    const overdraw = ship({ location: 'DOCK', time: '2024-03-02T10:00:00Z' }, instance('SALMON', lot, 70));
    const errors = await refused(endpoint, [bad, overdraw]);
    expect(listed(errors)).toEqual([
      [0, 'InvalidValue', 'EventTime'],
      [1, 'InsufficientInventory', 'ProductInstances[0].Quantity'],
    ]);
    expect(errors[1]).toMatchObject({ eventId: overdraw.Id, requested: 70, available: 50, lotSerial: lot });
  });

  it.each(ENDPOINTS)('%s: an unknown field in event 0 and an unknown product in event 1', async (endpoint) => {
    const typo = {
      ...commission({ location: 'DOCK', time: '2024-03-01T11:00:00Z' }, instance('SALMON', uid('LOT'), 5)),
      DocumentIDs: ['DOC-1'],
    };
    const ghost = uid('GHOST');
    const unknown = ship(
      { location: 'DOCK', time: '2024-03-02T10:00:00Z' },
      { ...instance(ghost, uid('LOT'), 1), Product: { Id: ghost } },
    );
    const errors = await refused(endpoint, [typo, unknown]);
    expect(listed(errors)).toEqual([
      [0, 'UnknownField', 'DocumentIDs'],
      [1, 'UnknownProduct', 'ProductInstances[0].Product.Id'],
    ]);
    expect(errors[0].message).toContain('did you mean DocumentIds?');
    expect(errors[1].message).toContain('its inventory was not checked');
  });

  it.each(ENDPOINTS)('%s: a missing field in event 1 and a stored event id in event 0', async (endpoint) => {
    const duplicate = ship(
      { location: 'DOCK', time: '2024-03-02T10:00:00Z', id: storedId },
      instance('SALMON', lot, 1),
    );
    const { Location: _dropped, ...missing } = ship(
      { location: 'DOCK', time: '2024-03-02T11:00:00Z' },
      instance('SALMON', lot, 1),
    );
    const errors = await refused(endpoint, [duplicate, missing]);
    expect(listed(errors)).toEqual([
      [0, 'DuplicateEventId', 'Id'],
      [1, 'Required', 'Location'],
    ]);
  });

  it.each(ENDPOINTS)(
    '%s: an event that depends on a refused one is not blamed for it, and the answer says it was not checked',
    async (endpoint) => {
      // Event 0 would create the product and the lot event 1 ships: without it, event 1 would read as an
      // unknown product and an overdraw, neither of which is true once event 0 is fixed.
      const newLot = uid('LOT');
      const newProduct = uid('COD');
      const typo = {
        ...commission({ location: 'DOCK', time: '2024-03-01T11:00:00Z' }, instance(newProduct, newLot, 5)),
        PurchaseOrdr: 'PO-1',
      };
      const dependent = ship(
        { location: 'DOCK', time: '2024-03-02T10:00:00Z' },
        { ...instance(newProduct, newLot, 5), Product: { Id: newProduct } },
      );
      // Event 2 has nothing to do with event 0: its overdraw is listed.
      const overdraw = ship({ location: 'DOCK', time: '2024-03-02T10:00:00Z' }, instance('SALMON', lot, 90));
      const errors = await refused(endpoint, [typo, dependent, overdraw]);
      expect(listed(errors)).toEqual([
        [0, 'UnknownField', 'PurchaseOrdr'],
        [2, 'InsufficientInventory', 'ProductInstances[0].Quantity'],
      ]);
      expect(errors[0].message).toContain('Event 1 names a product, location or lot that this event names');
    },
  );

  // 1,000 characters of a CJK script are 3,000 bytes, past what their indexes take: the batch failed as
  // InternalError after its retries (a sync call waited out its 30 s first).
  it.each(ENDPOINTS)("%s: a PurchaseOrder and a new location's Gln longer than 200 characters", async (endpoint) => {
    const event = commission({ location: uid('DOCK'), time: '2024-03-01T12:00:00Z' }, instance('SALMON', lot, 1));
    const long = {
      ...event,
      PurchaseOrder: cjk(1000),
      Location: { ...event.Location, Details: { ...event.Location.Details, Gln: cjk(1000) } },
    };
    const errors = await refused(endpoint, [long]);
    expect(errors.map((e) => [e.field, e.message])).toEqual([
      ['Location.Details.Gln', 'Events[0].Location.Details.Gln must NOT have more than 200 characters.'],
      ['PurchaseOrder', 'Events[0].PurchaseOrder must NOT have more than 200 characters.'],
    ]);
  });

  it('the event rules are said in the same words whether or not another event fails the schema', async () => {
    const typo = {
      ...commission({ location: 'DOCK', time: '2024-03-01T11:00:00Z' }, instance('SALMON', uid('LOT'), 5)),
      InvoiceNumbr: 'INV-1',
    };
    const badTime = commission({ location: 'DOCK', time: '2024-03-01T25:00:00Z' }, instance('SALMON', uid('LOT'), 5));
    const { Id: _noId, ...unnamed } = location('DOCK');
    const noLocationId = {
      ...commission({ location: 'DOCK', time: '2024-03-01T11:00:00Z' }, instance('SALMON', uid('LOT'), 5)),
      Location: unnamed,
    };
    // Without the schema's refusal, the event rules answer alone.
    const rulesAlone = await refused('/Integration/Events', [badTime, noLocationId]);
    const errors = await refused('/Integration/Events', [typo, badTime, noLocationId]);
    expect(listed(errors)).toEqual([
      [0, 'UnknownField', 'InvoiceNumbr'],
      [1, 'InvalidValue', 'EventTime'],
      [2, 'Required', 'Location.Id'],
    ]);
    expect(errors.slice(1).map((e) => e.message)).toEqual(rulesAlone.map((e) => e.message));
  });

  it('a body that is no list of events is answered with its own error alone', async () => {
    const response = await client(account.key).post('/Integration/Events', { Events: 'none' });
    expect(response.status).toBe(400);
    expect(listed(response.body.errors as ListedError[])).toEqual([[null, 'InvalidValue', 'Events']]);
  });
});

describe('POST /Integration/JSON: a body its schema refuses lists every problem of every event at once', () => {
  let account: TestAccount;
  const productUrn = urnOf('product');
  const outputUrn = urnOf('product');
  const at = { locationUrn: urnOf('location'), partnerUrn: urnOf('party') };
  const lot = uid('LOT');
  let storedId: string;
  beforeAll(async () => {
    account = await createAccount('every-error-json');
    const stored = jsonCommission(at, jsonInstance(productUrn, lot, 40));
    storedId = stored.ExternalEventId;
    expect((await client(account.key).post('/Integration/JSON', { Events: [stored] })).status).toBe(200);
  });

  async function refused(events: unknown[]): Promise<ListedError[]> {
    const tables = ['events', 'products', 'locations', 'trade_partners', 'inventory_records', 'batches'];
    const before = await rowCounts(account.id, tables);
    const response = await client(account.key).post('/Integration/JSON', { Events: events });
    expect(response.status).toBe(400);
    expect(await rowCounts(account.id, tables)).toEqual(before);
    return response.body.errors as ListedError[];
  }
  const listed = (errors: ListedError[]) => errors.map((e) => [e.index, e.code, e.field]);
  const overdraw = () =>
    jsonTransform(
      { ...at, time: '2024-03-03T10:00:00-05:00' },
      [jsonInstance(productUrn, lot, 41)],
      [jsonInstance(outputUrn, uid('OUT'), 41)],
    );

  it('an unknown field in event 0, an overdraw in event 1 and a stored ExternalEventId in event 2', async () => {
    const typo = { ...jsonCommission(at, jsonInstance(productUrn, uid('LOT'), 1)), Typo: 1 };
    const again = jsonCommission({ ...at, id: storedId }, jsonInstance(productUrn, uid('LOT'), 1));
    const errors = await refused([typo, overdraw(), again]);
    expect(listed(errors)).toEqual([
      [0, 'UnknownField', 'Typo'],
      [1, 'InsufficientInventory', 'InputProducts[0].Quantity'],
      [2, 'DuplicateEventId', 'ExternalEventId'],
    ]);
  });

  // A new product, location or trade partner takes its URN as its id, which events and the master data
  // endpoints name with at most 200 characters: a longer one could be created but never named. A URN that
  // is no URN (1,000 characters of a CJK script) was listed, but the batch failed as InternalError first:
  // the pipeline went on to create what it names, past what the URN's unique index takes.
  it('a Gln, PurchaseOrder or TradePartnerId longer than 200 characters, and a new URN that would be such an id', async () => {
    const fields = jsonCommission(at, jsonInstance(productUrn, uid('LOT'), 1));
    const long = (kind: string) => `urn:gdst:test.example:${kind}:${'x'.repeat(200)}`;
    const urns = jsonCommission(
      { locationUrn: long('location'), partnerUrn: long('party') },
      jsonInstance(long('product'), uid('LOT'), 1),
    );
    const cjkUrn = jsonCommission(at, jsonInstance(`urn:gdst:test.example:product:${cjk(950)}`, uid('LOT'), 1));
    const errors = await refused([
      {
        ...fields,
        PurchaseOrder: cjk(1000),
        Location: { ...fields.Location, Gln: cjk(1000) },
        TradePartner: { ...fields.TradePartner, TradePartnerId: cjk(1000) },
      },
      urns,
      cjkUrn,
    ]);
    expect(listed(errors)).toEqual([
      [0, 'InvalidValue', 'Location.Gln'],
      [0, 'InvalidValue', 'TradePartner.TradePartnerId'],
      [0, 'InvalidValue', 'PurchaseOrder'],
      [1, 'InvalidValue', 'TradePartner.Urn'],
      [1, 'InvalidValue', 'Location.Urn'],
      [1, 'InvalidValue', 'ProductInstances[0].ParentProduct.Urn'],
      [2, 'InvalidValue', 'ProductInstances[0].ParentProduct.Urn'],
    ]);
    expect(errors[4].message).toBe(
      `Location.Urn of a new location becomes its id, which is at most 200 characters; this one has ${long('location').length}.`,
    );
    expect(errors[6].message).toContain('is not a URN');
  });

  it('an event whose value is refused still supplies the lot a later event takes: that one is not blamed', async () => {
    const newLot = uid('LOT');
    const refusedStep = { ...jsonCommission(at, jsonInstance(productUrn, newLot, 5)), BizStep: 'not-a-step' };
    const taking = jsonTransform(
      { ...at, time: '2024-03-03T10:00:00-05:00' },
      [jsonInstance(productUrn, newLot, 5)],
      [jsonInstance(outputUrn, uid('OUT'), 5)],
    );
    const response = await client(account.key).post('/Integration/JSON', { Events: [refusedStep, taking] });
    expect(response.status).toBe(400);
    expect(listed(response.body.errors as ListedError[])).toEqual([[0, 'InvalidValue', 'BizStep']]);
  });

  it('a new URN that is no URN is refused without waiting out the call', async () => {
    const before = await rowCounts(account.id, ['events', 'products']);
    const response = await client(account.key).post('/Integration/JSON', {
      Events: [jsonCommission(at, jsonInstance(`urn:gdst:test.example:product:${cjk(950)}`, uid('LOT'), 1))],
    });
    expect(response.status).toBe(400);
    expect(listed(response.body.errors as ListedError[])).toEqual([
      [0, 'InvalidValue', 'ProductInstances[0].ParentProduct.Urn'],
    ]);
    expect(await rowCounts(account.id, ['events', 'products'])).toEqual(before);
  });

  it('an event is not blamed for what a refused one would create, and the refused one says so', async () => {
    const newProduct = urnOf('product');
    const newLot = uid('LOT');
    const typo = { ...jsonCommission(at, jsonInstance(newProduct, newLot, 5)), Typo: 1 };
    const dependent = jsonTransform(
      { ...at, time: '2024-03-03T10:00:00-05:00' },
      [{ ...jsonInstance(newProduct, newLot, 5), ParentProduct: { Urn: newProduct } }],
      [jsonInstance(outputUrn, uid('OUT'), 5)],
    );
    const errors = await refused([typo, dependent, overdraw()]);
    expect(listed(errors)).toEqual([
      [0, 'UnknownField', 'Typo'],
      [2, 'InsufficientInventory', 'InputProducts[0].Quantity'],
    ]);
    expect(errors[0].message).toContain('Event 1 names a product, location or lot that this event names');
  });
});
