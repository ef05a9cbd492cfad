import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, eventIdOf, finishedJob, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { rowCounts, sql } from '../helpers/db';
import { apiUrl, client, request } from '../helpers/http';
import { timelineOf } from '../helpers/inventory';

/** Rows of the account in every table a capture may write: a refused capture must leave them all unchanged. */
const counts = (accountId: string) =>
  rowCounts(accountId, ['events', 'batches', 'products', 'locations', 'inventory_records', 'ledger_entries']);

const dl = (gtin: string) => `https://id.gs1.org/01/${gtin}`;
const dlLocation = (gln: string) => `https://id.gs1.org/414/${gln}`;

describe('POST /epcis/capture', () => {
  let account: TestAccount;

  beforeAll(async () => {
    account = await createAccount('epcis');
  });

  it('a commissioning and a shipping document runs as one epcis batch and lands in inventory and the ledger', async () => {
    const ids = gs1Ids();
    const lot = lotOf();
    const commission = objectEvent({
      action: 'ADD',
      bizStep: 'commissioning',
      quantityList: [{ epcClass: ids.lgtin(lot), quantity: 100, uom: 'KGM' }],
      bizLocation: ids.sgln(),
    });
    const ship = objectEvent({
      action: 'OBSERVE',
      bizStep: 'https://ref.gs1.org/cbv/BizStep-shipping',
      eventTime: '2024-03-02T10:00:00-05:00',
      quantityList: [{ epcClass: ids.lgtin(lot), quantity: 30, uom: 'KGM' }],
      readPoint: ids.sgln(),
    });
    const accepted = await client(account.key).post('/epcis/capture', epcisDocument([commission, ship]), {
      'Content-Type': 'application/ld+json',
    });
    expect(accepted.status).toBe(202);
    const location = accepted.headers.get('location')!;
    expect(location).toMatch(/^\/epcis\/capture\/[0-9a-f-]{36}$/);
    expect(accepted.body).toEqual({ captureID: location.split('/').pop(), location });
    expect(accepted.headers.get('gs1-epcis-version')).toBe('2.0.0');

    const job = await finishedJob(account.key, location);
    expect(job).toMatchObject({
      captureID: location.split('/').pop(),
      running: false,
      success: true,
      captureErrorBehaviour: 'rollback',
      errors: [],
    });
    expect(job.createdMasterData).toEqual({ products: [dl(ids.gtin)], locations: [dlLocation(ids.gln)] });

    // The capture job is a batch of the pipeline, run by processEventBatch like any other.
    const { rows: batches } = await sql().query('SELECT mode, status, workflow_id FROM batches WHERE id = $1', [
      job.captureID,
    ]);
    expect(batches).toEqual([{ mode: 'epcis', status: 'Completed', workflow_id: `batch-${job.captureID}` }]);
    const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });
    try {
      const description = await new Client({ connection }).workflow.getHandle(`batch-${job.captureID}`).describe();
      expect(description.type).toBe('processEventBatch');
      expect(await description.staticSummary()).toBe(`${account.name} · epcis · 2 events`);
    } finally {
      await connection.close();
    }
    const { rows: products } = await sql().query(
      'SELECT gtin, identifier_type FROM products WHERE account_id = $1 AND external_id = $2',
      [account.id, dl(ids.gtin)],
    );
    expect(products).toEqual([{ gtin: ids.gtin, identifier_type: 'Lot' }]);
    const { rows: locations } = await sql().query(
      'SELECT gln FROM locations WHERE account_id = $1 AND external_id = $2',
      [account.id, dlLocation(ids.gln)],
    );
    expect(locations).toEqual([{ gln: ids.gln }]);
    expect(await timelineOf(account.id, dl(ids.gtin), lot, dlLocation(ids.gln))).toEqual([
      { eventTime: '2024-03-01T15:00:00Z', delta: '100', balance: '100', available: '70' },
      { eventTime: '2024-03-02T15:00:00Z', delta: '-30', balance: '70', available: '70' },
    ]);
    const { rows: events } = await sql().query(
      'SELECT type, external_event_id FROM events WHERE batch_id = $1 ORDER BY seq',
      [job.captureID],
    );
    expect(events).toEqual([
      { type: 'Commission', external_event_id: commission.eventID },
      { type: 'Ship', external_event_id: ship.eventID },
    ]);
    const { rows: ledger } = await sql().query(
      'SELECT count(*)::int AS n FROM ledger_entries l JOIN events e ON e.id = l.event_id WHERE e.batch_id = $1',
      [job.captureID],
    );
    expect(ledger).toEqual([{ n: 1 }]);
  });

  it('reuses the product with that GTIN and the location with that GLN the account already has', async () => {
    const ids = gs1Ids();
    const api = client(account.key);
    const product = await api.post('/Integration/Products', {
      Products: [
        {
          Id: 'COD-1',
          Details: {
            Name: 'Cod',
            SimpleUnitOfMeasurement: 'KGM',
            SharingPolicy: 'Open',
            ProductIdentifierType: 'Lot',
            Gtin: ids.gtin,
          },
        },
      ],
    });
    expect(product.status).toBe(200);
    const created = await api.post('/Integration/Locations', {
      Locations: [
        {
          Id: 'PLANT-1',
          Details: {
            Name: 'Plant',
            Gln: ids.gln,
            TradePartner: { Id: 'ME', Name: 'Me', ConnectionType: 'SELF' },
            Address: { City: 'Boston', Country: 'US', AddressLine1: '1 Pier' },
          },
        },
      ],
    });
    expect(created.status).toBe(200);
    const lot = lotOf();
    const job = await capture(
      account.key,
      epcisDocument([
        objectEvent({
          quantityList: [{ epcClass: ids.lgtin(lot), quantity: 5 }],
          bizLocation: `https://id.gs1.org/414/${ids.gln}`,
        }),
      ]),
    );
    expect(job).toMatchObject({ success: true, createdMasterData: { products: [], locations: [] } });
    expect(await timelineOf(account.id, 'COD-1', lot, 'PLANT-1')).toEqual([
      { eventTime: '2024-03-01T15:00:00Z', delta: '5', balance: '5', available: '5' },
    ]);
  });

  it('a shipment of more than the timeline holds is recorded: the lot goes below zero from then on', async () => {
    const ids = gs1Ids();
    const lot = lotOf();
    const job = await capture(
      account.key,
      epcisDocument([
        objectEvent({
          action: 'OBSERVE',
          bizStep: 'shipping',
          quantityList: [{ epcClass: ids.lgtin(lot), quantity: 40 }],
          readPoint: ids.sgln(),
        }),
      ]),
    );
    expect(job.success).toBe(true);
    expect(await timelineOf(account.id, dl(ids.gtin), lot, dlLocation(ids.gln))).toEqual([
      { eventTime: '2024-03-01T15:00:00Z', delta: '-40', balance: '-40', available: '-40' },
    ]);
    const inventory = await client(account.key).get(
      `/Integration/Inventory?ProductIds=${encodeURIComponent(dl(ids.gtin))}`,
    );
    expect(inventory.body.products[0].lots[0].inventory).toEqual([expect.objectContaining({ quantityAvailable: -40 })]);

    // The missing commission, captured later but dated earlier, lifts every later record.
    await capture(
      account.key,
      epcisDocument([
        objectEvent({
          eventTime: '2024-02-01T10:00:00-05:00',
          quantityList: [{ epcClass: ids.lgtin(lot), quantity: 100 }],
          readPoint: ids.sgln(),
        }),
      ]),
    );
    expect((await timelineOf(account.id, dl(ids.gtin), lot, dlLocation(ids.gln))).map((r) => r.available)).toEqual([
      '60',
      '60',
    ]);
  });

  it('an overdraw is accepted but not silent: the job warns per lot and location, inventory and /metrics show it, until the missing event arrives', async () => {
    const ids = gs1Ids();
    const lot = lotOf();
    const product = dl(ids.gtin);
    const place = dlLocation(ids.gln);
    const negativeLots = async () => {
      const text = (await request<string>('GET', '/metrics')).text;
      const line = text
        .split('\n')
        .find((l) => l.startsWith(`traceability_inventory_negative_lots{account="${account.name}"}`));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    await capture(
      account.key,
      epcisDocument([
        objectEvent({ quantityList: [{ epcClass: ids.lgtin(lot), quantity: 50 }], bizLocation: ids.sgln() }),
      ]),
    );
    const before = await negativeLots();
    const shipped = await capture(
      account.key,
      epcisDocument([
        objectEvent({
          action: 'OBSERVE',
          bizStep: 'shipping',
          eventTime: '2024-03-03T10:00:00-05:00',
          quantityList: [{ epcClass: ids.lgtin(lot), quantity: 70 }],
          readPoint: ids.sgln(),
        }),
      ]),
    );
    expect(shipped).toMatchObject({ success: true, errors: [] });
    const job = await client(account.key).get(`/epcis/capture/${shipped.captureID}`);
    expect(job.body.warnings).toEqual([
      {
        type: 'NegativeInventory',
        title: 'A lot this capture took from reads negative.',
        detail: `Lot ${lot} of product ${product} at location ${place} reads -20: an event that added it is missing, or this capture took more than was there.`,
        product,
        lotSerial: lot,
        location: place,
        quantity: -20,
      },
    ]);
    const inventory = await client(account.key).get(`/Integration/Inventory?ProductIds=${encodeURIComponent(product)}`);
    expect(inventory.status).toBe(200);
    const [entry] = inventory.body.products[0].lots;
    expect(entry.negative).toEqual([
      {
        locationId: expect.any(String),
        externalLocationId: place,
        locationName: expect.any(String),
        quantity: -20,
      },
    ]);
    expect(entry.negative[0].locationId).toBe(entry.inventory[0].locationId);
    expect(await negativeLots()).toBe(before + 1);

    // The missing 20, captured later but dated before the shipment: the lot reads 0, and every indicator clears.
    await capture(
      account.key,
      epcisDocument([
        objectEvent({
          eventTime: '2024-03-02T10:00:00-05:00',
          quantityList: [{ epcClass: ids.lgtin(lot), quantity: 20 }],
          bizLocation: ids.sgln(),
        }),
      ]),
    );
    expect((await client(account.key).get(`/epcis/capture/${shipped.captureID}`)).body.warnings).toEqual([]);
    const cleared = await client(account.key).get(`/Integration/Inventory?ProductIds=${encodeURIComponent(product)}`);
    expect(cleared.body.products[0].lots[0]).not.toHaveProperty('negative');
    expect(await negativeLots()).toBe(before);
  });

  it('a document that breaks the GS1 schema is a 400 ValidationException naming the JSON pointer, and stores nothing', async () => {
    const before = await counts(account.id);
    const bad = objectEvent({ quantityList: [{ epcClass: gs1Ids().lgtin('L1'), quantity: 1 }] }) as Record<
      string,
      unknown
    >;
    bad.action = 'SOMETIMES';
    delete bad.eventTime;
    const response = await client(account.key).post('/epcis/capture', epcisDocument([objectEvent(), bad]));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body.type).toBe('epcisException:ValidationException');
    expect(Object.keys(response.body.errors)).toEqual(
      expect.arrayContaining(['/epcisBody/eventList/1/action', '/epcisBody/eventList/1/eventTime']),
    );
    expect(await counts(account.id)).toEqual(before);
  });

  it('rules the schema cannot state are 400s too: an eventID twice in the document, a date that does not exist', async () => {
    const before = await counts(account.id);
    const id = eventIdOf();
    const twice = await client(account.key).post(
      '/epcis/capture',
      epcisDocument([objectEvent({ eventID: id }), objectEvent({ eventID: id })]),
    );
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual({ '/epcisBody/eventList/1/eventID': [expect.stringContaining(id)] });
    const february = await client(account.key).post(
      '/epcis/capture',
      epcisDocument([objectEvent({ eventTime: '2024-02-31T10:00:00-05:00' })]),
    );
    expect(february.status).toBe(400);
    expect(Object.keys(february.body.errors)).toEqual(['/epcisBody/eventList/0/eventTime']);
    const lgtin = gs1Ids().lgtin(`L${'x'.repeat(200)}`);
    const bounds = await client(account.key).post(
      '/epcis/capture',
      epcisDocument([
        objectEvent({
          quantityList: [
            { epcClass: gs1Ids().lgtin('L1'), quantity: -5 },
            { epcClass: lgtin, quantity: 1 },
            { epcClass: gs1Ids().lgtin('L2'), quantity: 1, uom: 'ZZZ' },
          ],
        }),
      ]),
    );
    expect(bounds.status).toBe(400);
    expect(Object.keys(bounds.body.errors)).toEqual([
      '/epcisBody/eventList/0/quantityList/0/quantity',
      '/epcisBody/eventList/0/quantityList/1',
      '/epcisBody/eventList/0/quantityList/2/uom',
    ]);
    expect(await counts(account.id)).toEqual(before);
  });

  // They become the event's and the location's ids, which the service names with at most 200 characters.
  // 2,400 random bytes in hex are past what their unique indexes take: the job failed as ImplementationException.
  it('an eventID, or the readPoint or bizLocation that is no GLN, longer than 200 characters is a 400 naming it', async () => {
    const before = await counts(account.id);
    const long = `urn:example:${randomBytes(1200).toString('hex')}`;
    const response = await client(account.key).post(
      '/epcis/capture',
      epcisDocument([
        objectEvent({ eventID: long }),
        objectEvent({ readPoint: `urn:example:loc:${'x'.repeat(190)}` }),
        objectEvent({ readPoint: 'urn:example:loc:short', bizLocation: long }),
      ]),
    );
    expect(response.status).toBe(400);
    const location = "A location identifier that is no GLN becomes the location's id: at most 200 characters.";
    expect(response.body.errors).toEqual({
      '/epcisBody/eventList/0/eventID': ['An eventID is at most 200 characters.'],
      '/epcisBody/eventList/1/readPoint/id': [location],
      '/epcisBody/eventList/2/bizLocation/id': [location],
    });
    expect(await counts(account.id)).toEqual(before);
  });

  it("reads a quantity in another unit of the product's kind in the product's unit", async () => {
    const ids = gs1Ids();
    const lot = lotOf();
    const line = (quantity: number, uom: string) => [{ epcClass: ids.lgtin(lot), quantity, uom }];
    const job = await capture(
      account.key,
      epcisDocument([
        objectEvent({ action: 'ADD', quantityList: line(100, 'KGM'), bizLocation: ids.sgln() }),
        objectEvent({
          action: 'OBSERVE',
          eventTime: '2024-03-02T10:00:00-05:00',
          bizStep: 'shipping',
          quantityList: line(22, 'LBR'),
          readPoint: ids.sgln(),
        }),
        objectEvent({
          action: 'OBSERVE',
          eventTime: '2024-03-03T10:00:00-05:00',
          bizStep: 'shipping',
          quantityList: line(500, 'GRM'),
          readPoint: ids.sgln(),
        }),
      ]),
    );
    expect(job).toMatchObject({ success: true, warnings: [] });
    // 22 lb is 9.97903214 kg: 100 - 9.97903214 - 0.5.
    const inventory = await client(account.key).get(
      `/Integration/Inventory?ProductIds=${encodeURIComponent(dl(ids.gtin))}`,
    );
    expect(
      inventory.body.products[0].lots[0].inventory.map((r: { quantityAvailable: number }) => r.quantityAvailable),
    ).toEqual([89.52096786, 89.52096786, 89.52096786]);

    // Converted, a quantity must still be one the service keeps.
    const before = await counts(account.id);
    const tons = await client(account.key).post(
      '/epcis/capture',
      epcisDocument([objectEvent({ action: 'ADD', quantityList: line(1e10, 'TNE'), bizLocation: ids.sgln() })]),
    );
    expect(tons.status).toBe(400);
    expect(tons.body.errors).toEqual({
      '/epcisBody/eventList/0/quantityList/0/quantity': [
        "10000000000 TNE is 10000000000000 KGM, the product's unit: a quantity is at most 1000000000000.",
      ],
    });
    expect(await counts(account.id)).toEqual(before);
  });

  it('a quantity with digits past 12 decimal places is a 400 naming it: they would not be kept', async () => {
    const before = await counts(account.id);
    const ids = gs1Ids();
    const response = await client(account.key).post(
      '/epcis/capture',
      epcisDocument([objectEvent({ quantityList: [{ epcClass: ids.lgtin('T'), quantity: 1e-20, uom: 'KGM' }] })]),
    );
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual({
      '/epcisBody/eventList/0/quantityList/0/quantity': [
        'Quantity 1e-20 has digits past 12 decimal places, which are not kept: round it to at most 12.',
      ],
    });
    expect(await counts(account.id)).toEqual(before);
  });

  it('rollback (the default): one event already captured fails the job and stores none of the document', async () => {
    const ids = gs1Ids();
    const first = objectEvent({ quantityList: [{ epcClass: ids.lgtin('A'), quantity: 1 }], readPoint: ids.sgln() });
    expect((await capture(account.key, epcisDocument([first]))).success).toBe(true);
    const before = await counts(account.id);
    const fresh = objectEvent({ quantityList: [{ epcClass: ids.lgtin('B'), quantity: 1 }], readPoint: ids.sgln() });
    const job = await capture(account.key, epcisDocument([fresh, first]));
    expect(job).toMatchObject({ running: false, success: false, captureErrorBehaviour: 'rollback' });
    expect(job.errors).toEqual([
      expect.objectContaining({ type: 'epcisException:ValidationException', eventID: first.eventID }),
    ]);
    const after = await counts(account.id);
    expect({ ...after, batches: before.batches }).toEqual(before);
  });

  it('proceed: the events that can be captured are, the others are listed in the job', async () => {
    const ids = gs1Ids();
    const first = objectEvent({ quantityList: [{ epcClass: ids.lgtin('A'), quantity: 1 }], readPoint: ids.sgln() });
    await capture(account.key, epcisDocument([first]));
    const fresh = objectEvent({ quantityList: [{ epcClass: ids.lgtin('B'), quantity: 1 }], readPoint: ids.sgln() });
    const job = await capture(account.key, epcisDocument([first, fresh]), { 'GS1-Capture-Error-Behaviour': 'proceed' });
    expect(job).toMatchObject({ running: false, success: false, captureErrorBehaviour: 'proceed' });
    expect(job.errors).toEqual([expect.objectContaining({ eventID: first.eventID })]);
    const { rows } = await sql().query('SELECT external_event_id FROM events WHERE batch_id = $1', [job.captureID]);
    expect(rows).toEqual([{ external_event_id: fresh.eventID }]);
  });

  it('takes an EPCISQueryDocument too, and an event with neither readPoint nor bizLocation (recorded at the unknown location)', async () => {
    const ids = gs1Ids();
    const lot = lotOf();
    const nowhere = objectEvent({ quantityList: [{ epcClass: ids.lgtin(lot), quantity: 2 }] });
    const queryDocument = {
      '@context': ['https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld'],
      type: 'EPCISQueryDocument',
      schemaVersion: '2.0',
      creationDate: '2024-03-01T15:00:00Z',
      epcisBody: { queryResults: { queryName: 'SimpleEventQuery', resultsBody: { eventList: [nowhere] } } },
    };
    const job = await capture(account.key, queryDocument);
    expect(job.success).toBe(true);
    expect(job.createdMasterData?.locations).toEqual(['urn:epcis:location:unknown']);
    expect(await timelineOf(account.id, dl(ids.gtin), lot, 'urn:epcis:location:unknown')).toEqual([
      { eventTime: '2024-03-01T15:00:00Z', delta: '2', balance: '2', available: '2' },
    ]);
    const again = await capture(
      account.key,
      epcisDocument([objectEvent({ quantityList: [{ epcClass: ids.lgtin(lot), quantity: 1 }] })]),
    );
    expect(again.createdMasterData).toEqual({ products: [], locations: [] });
    const back = await client(account.key).get(`/epcis/events/${encodeURIComponent(nowhere.eventID as string)}`, {
      'GS1-EPC-Format': 'Never_Translates',
    });
    expect(back.body.epcisBody.queryResults.resultsBody.eventList).toEqual([
      { ...nowhere, recordTime: expect.any(String) },
    ]);
  });

  it('an unknown GS1-Capture-Error-Behaviour is a 400 naming the value; the document is checked first', async () => {
    const response = await client(account.key).post('/epcis/capture', epcisDocument([objectEvent()]), {
      'GS1-Capture-Error-Behaviour': 'sometimes',
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      type: 'epcisException:ValidationException',
      code: 'epcis-invalid-header',
      detail: 'GS1-Capture-Error-Behaviour must be one of rollback, proceed; got "sometimes".',
    });
    const both = await client(account.key).post(
      '/epcis/capture',
      { type: 'EPCISDocument' },
      { 'GS1-Capture-Error-Behaviour': 'sometimes' },
    );
    expect(both.status).toBe(400);
    expect(both.body.title).toBe('The document is not valid EPCIS 2.0 JSON: nothing was captured.');
  });

  it('another media type is a 415', async () => {
    const response = await request('POST', '/epcis/capture', {
      key: account.key,
      body: 'hello',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(response.status).toBe(415);
  });

  it('OPTIONS advertises the limits, and a document over the event limit is a 413 with them', async () => {
    const options = await fetch(`${apiUrl()}/epcis/capture`, {
      method: 'OPTIONS',
      headers: { 'X-API-KEY': account.key },
    });
    expect(options.status).toBe(204);
    expect(options.headers.get('gs1-epcis-capture-limit')).toBe('1000');
    expect(options.headers.get('gs1-epcis-capture-file-size-limit')).toBe(String(25 * 1024 * 1024));
    expect(options.headers.get('gs1-capture-error-behaviour')).toBe('rollback, proceed');
    const before = await counts(account.id);
    const events = Array.from({ length: 1001 }, () => objectEvent());
    const response = await client(account.key).post('/epcis/capture', epcisDocument(events));
    expect(response.status).toBe(413);
    expect(response.body.type).toBe('epcisException:CaptureLimitExceededException');
    expect(response.headers.get('gs1-epcis-capture-limit')).toBe('1000');
    expect(await counts(account.id)).toEqual(before);
  });

  it('lists the account’s capture jobs in pages with a Link to the next; another account sees none of them', async () => {
    const api = client(account.key);
    const first = await api.get('/epcis/capture?perPage=2');
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(2);
    const link = first.headers.get('link')!;
    expect(link).toMatch(/^<\/epcis\/capture\?perPage=2&nextPageToken=[^>]+>; rel="next"$/);
    const second = await api.get(link.slice(1, link.indexOf('>')));
    expect(second.status).toBe(200);
    expect(second.body[0].captureID).not.toBe(first.body[1].captureID);

    const other = await createAccount('epcis-other');
    const theirs = await client(other.key).get('/epcis/capture');
    expect(theirs.body).toEqual([]);
    const job = await client(other.key).get(`/epcis/capture/${first.body[0].captureID}`);
    expect(job.status).toBe(404);
    expect(job.body.type).toBe('epcisException:NoSuchResourceException');
    // An id that is no UUID names no job either, answered alike.
    const notUuid = await api.get('/epcis/capture/not-a-uuid');
    expect(notUuid.status).toBe(404);
    expect(notUuid.body).toMatchObject({
      type: 'epcisException:NoSuchResourceException',
      code: 'epcis-unknown-capture-job',
      detail: 'No capture job not-a-uuid in this account.',
    });
  });

  it('needs the API key like every /Integration route', async () => {
    const response = await request('GET', '/epcis/capture', {});
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveProperty('X-API-KEY');
  });
});
