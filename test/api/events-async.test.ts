import { Client, Connection } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { createAccount, type TestAccount } from '../factories/accounts';
import { commission, instance, ship, uid } from '../factories/events';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';
import { countEvents } from '../helpers/inventory';

async function settle(account: TestAccount, statusUrl: string) {
  for (let i = 0; i < 200; i++) {
    const response = await client(account.key).get(statusUrl);
    if (response.body.status === 'Completed' || response.body.status === 'Failed') return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`batch ${statusUrl} did not finish`);
}

describe('POST /Integration/Events/async and GET /Integration/Events/async/{batchId}', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await createAccount('async');
  });

  it('answers 202 at once, then reports the result the sync endpoint would give', async () => {
    const lot = uid('LOT');
    const events = [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', lot, 10))];
    const accepted = await client(account.key).post('/Integration/Events/async', { Events: events });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({
      message: expect.any(String),
      batchId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'Accepted',
      statusUrl: `/Integration/Events/async/${accepted.body.batchId}`,
    });
    const done = await settle(account, accepted.body.statusUrl);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      batchId: accepted.body.batchId,
      status: 'Completed',
      message: 'Every event was stored; result lists them.',
      submittedAt: expect.any(String),
      completedAt: expect.any(String),
      result: [
        {
          id: expect.any(String),
          externalEventId: events[0].Id,
          type: 'Commission',
          status: 'Created',
          eventDate: '2024-03-01T10:00:00+00:00',
          productInstances: [{ productId: 'SALMON', lotSerial: lot, quantity: 10 }],
          documentsNotAttached: null,
        },
      ],
      errors: null,
      retriedBy: null,
    });
    const { rows } = await sql().query('SELECT mode, status, workflow_id, started_at FROM batches WHERE id = $1', [
      accepted.body.batchId,
    ]);
    expect(rows[0]).toMatchObject({
      mode: 'async',
      status: 'Completed',
      workflow_id: `batch-${accepted.body.batchId}`,
    });
    expect(rows[0].started_at).not.toBeNull();

    // Operators find the batch in the Temporal UI by account and batch id.
    const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });
    try {
      const description = await new Client({ connection }).workflow.getHandle(rows[0].workflow_id).describe();
      expect(
        description.typedSearchAttributes.get(defineSearchAttributeKey('AccountName', SearchAttributeType.KEYWORD)),
      ).toBe(account.name);
      expect(
        description.typedSearchAttributes.get(defineSearchAttributeKey('BatchId', SearchAttributeType.KEYWORD)),
      ).toBe(accepted.body.batchId);
      expect(description.memo).toMatchObject({
        accountId: account.id,
        accountName: account.name,
        batchId: accepted.body.batchId,
      });
    } finally {
      await connection.close();
    }
  });

  it('a rejected batch ends Failed with its errors and stores nothing', async () => {
    const before = await countEvents(account.id);
    const accepted = await client(account.key).post('/Integration/Events/async', {
      Events: [ship({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 10))],
    });
    expect(accepted.status).toBe(202);
    const done = await settle(account, accepted.body.statusUrl);
    expect(done.body).toMatchObject({
      status: 'Failed',
      result: null,
      errors: [expect.objectContaining({ index: 0, code: 'InsufficientInventory' })],
    });
    expect(await countEvents(account.id)).toBe(before);
  });

  it.each([
    ['a new product and new locations', 'COD'],
    ['new locations of a stored product', 'SALMON'],
  ])('a refused batch keeps none of the master data it created on the way: %s', async (_, productId) => {
    const owner = await createAccount('async-undo');
    const stock = [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 5))];
    expect((await client(owner.key).post('/Integration/Events', { Events: stock })).status).toBe(200);
    const masterData = async () =>
      (
        await sql().query(
          `SELECT (SELECT count(*) FROM products WHERE account_id = $1)::int AS products,
                  (SELECT count(*) FROM locations WHERE account_id = $1)::int AS locations,
                  (SELECT count(*) FROM trade_partners WHERE account_id = $1)::int AS partners`,
          [owner.id],
        )
      ).rows[0];
    const before = await masterData();
    const lot = uid('LOT');
    const pier = uid('PIER');
    // New locations (and, for COD, a new product) created from Details, then an overdraw of the new lot.
    const events = [
      commission({ location: pier, time: '2024-03-02T10:00:00Z' }, instance(productId, lot, 5)),
      ship({ location: pier, time: '2024-03-03T10:00:00Z' }, instance(productId, lot, 10)),
    ];
    const accepted = await client(owner.key).post('/Integration/Events/async', { Events: events });
    expect(accepted.status).toBe(202);
    const done = await settle(owner, accepted.body.statusUrl);
    expect(done.body).toMatchObject({
      status: 'Failed',
      errors: [expect.objectContaining({ index: 1, code: 'InsufficientInventory' })],
    });
    expect(await masterData()).toEqual(before);
  });

  it('a refused batch lists every error of every event at once: master data, duplicates and inventory', async () => {
    const lot = uid('LOT');
    const stored = commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', lot, 50));
    expect((await client(account.key).post('/Integration/Events', { Events: [stored] })).status).toBe(200);
    const before = await countEvents(account.id);
    const ghost = uid('GHOST');
    const unknownProduct = { ...instance(ghost, uid('LOT'), 5), Product: { Id: ghost } };
    const events = [
      // An unknown product and an overdraw of a known lot in one event: both listed.
      ship({ location: 'DOCK', time: '2024-03-02T10:00:00Z' }, unknownProduct, instance('SALMON', lot, 70)),
      // An overdraw in another event, and an event id already stored.
      ship({ location: 'DOCK', time: '2024-03-03T10:00:00Z', id: stored.Id }, instance('SALMON', uid('LOT'), 1)),
    ];
    const accepted = await client(account.key).post('/Integration/Events/async', { Events: events });
    const done = await settle(account, accepted.body.statusUrl);
    expect(done.body.status).toBe('Failed');
    const errors = done.body.errors as { index: number; code: string; field: string; message: string }[];
    expect(errors.map((e) => [e.index, e.code, e.field])).toEqual(
      expect.arrayContaining([
        [0, 'UnknownProduct', 'ProductInstances[0].Product.Id'],
        [0, 'InsufficientInventory', 'ProductInstances[1].Quantity'],
        [1, 'DuplicateEventId', 'Id'],
        [1, 'InsufficientInventory', 'ProductInstances[0].Quantity'],
      ]),
    );
    expect(errors).toHaveLength(4);
    // The line of the unknown product was not checked against inventory, and its error says so.
    expect(errors.find((e) => e.code === 'UnknownProduct')!.message).toContain('its inventory was not checked');
    expect(await countEvents(account.id)).toBe(before);

    // The list is on the batch row; the workflow's failure (its history) names only the first error and how many there are.
    const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });
    try {
      const failure = await new Client({ connection }).workflow
        .getHandle(`batch-${accepted.body.batchId}`)
        .result()
        .then(
          () => undefined,
          (error: { cause?: { type?: string; details?: unknown[] } }) => error.cause,
        );
      expect(failure?.type).toBe(errors[0].code);
      expect(failure?.details).toEqual([{ errorCount: 4, firstError: errors[0] }]);
    } finally {
      await connection.close();
    }

    // The sync endpoint answers the same list.
    const sync = await client(account.key).post('/Integration/Events', {
      Events: events.map((e, i) => ({ ...e, Id: i ? stored.Id : uid('ship') })),
    });
    expect(sync.status).toBe(400);
    expect((sync.body.errors as { code: string }[]).map((e) => e.code).sort()).toEqual([
      'DuplicateEventId',
      'InsufficientInventory',
      'InsufficientInventory',
      'UnknownProduct',
    ]);
    expect(await countEvents(account.id)).toBe(before);
  });

  it('schema errors are a 400 before any workflow starts', async () => {
    const response = await client(account.key).post('/Integration/Events/async', {
      Events: [{ $type: 'commission', Id: 'X' }],
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ index: 0, eventId: 'X', code: 'Required', field: 'Location' }),
      ]),
    );
  });

  it('the same Idempotency-Key gives the same batch', async () => {
    const key = uid('key');
    const events = [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 10))];
    const first = await client(account.key).post(
      '/Integration/Events/async',
      { Events: events },
      { 'Idempotency-Key': key },
    );
    const second = await client(account.key).post(
      '/Integration/Events/async',
      { Events: events },
      { 'Idempotency-Key': key },
    );
    expect(second.body.batchId).toBe(first.body.batchId);
    await settle(account, first.body.statusUrl);
    const { rows } = await sql().query(
      'SELECT count(*)::int AS n FROM events WHERE external_event_id = $1 AND account_id = $2',
      [events[0].Id, account.id],
    );
    expect(rows[0].n).toBe(1);
  });

  it("another account's batch is a 404", async () => {
    const accepted = await client(account.key).post('/Integration/Events/async', {
      Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 1))],
    });
    const other = await createAccount('async-other');
    expect((await client(other.key).get(accepted.body.statusUrl)).status).toBe(404);
    const notUuid = await client(account.key).get('/Integration/Events/async/not-a-uuid');
    expect(notUuid.status).toBe(404);
    expect(notUuid.body).toMatchObject({
      status: 404,
      code: 'unknown-batch',
      detail: 'No batch not-a-uuid in this account.',
    });
    // 36 characters of hex digits and dashes that are no UUID: PostgreSQL would refuse the cast (a 500).
    const uuidShaped = '603c75d270F9f-a21A39f90BEB4301A5-2b7';
    expect((await client(account.key).get(`/Integration/Events/async/${uuidShaped}`)).status).toBe(404);
  });

  it('a malformed Idempotency-Key is a 400 naming it, and nothing is stored; a blank one is no key', async () => {
    const events = () => [
      commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 1)),
    ];
    const refused: string[] = [];
    for (const key of ['two words', 'k'.repeat(201)]) {
      for (const path of ['/Integration/Events', '/Integration/Events/async']) {
        const sent = events();
        refused.push(sent[0].Id);
        const response = await client(account.key).post(path, { Events: sent }, { 'Idempotency-Key': key });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({
          status: 400,
          title: 'Idempotency-Key must be 1 to 200 visible ASCII characters.',
        });
      }
    }
    const { rows } = await sql().query(
      'SELECT count(*)::int AS n FROM batches WHERE account_id = $1 AND request::text LIKE ANY($2::text[])',
      [account.id, refused.map((id) => `%${id}%`)],
    );
    expect(rows[0].n).toBe(0);
    // A key's surrounding blanks are not part of it: the same batch answers.
    const key = uid('key');
    const sent = events();
    const first = await client(account.key).post(
      '/Integration/Events/async',
      { Events: sent },
      { 'Idempotency-Key': key },
    );
    const padded = await client(account.key).post(
      '/Integration/Events/async',
      { Events: sent },
      { 'Idempotency-Key': ` ${key} ` },
    );
    expect(padded.body.batchId).toBe(first.body.batchId);
    const blank = await client(account.key).post(
      '/Integration/Events/async',
      { Events: events() },
      { 'Idempotency-Key': ' ' },
    );
    expect(blank.status).toBe(202);
    await settle(account, first.body.statusUrl);
    await settle(account, blank.body.statusUrl);
  });
});
