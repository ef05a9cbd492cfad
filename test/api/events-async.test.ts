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
    });
    const { rows } = await sql().query('SELECT mode, status, workflow_id, started_at FROM batches WHERE id = $1', [accepted.body.batchId]);
    expect(rows[0]).toMatchObject({ mode: 'async', status: 'Completed', workflow_id: `batch-${accepted.body.batchId}` });
    expect(rows[0].started_at).not.toBeNull();

    // Operators find the batch in the Temporal UI by account and batch id.
    const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });
    try {
      const description = await new Client({ connection }).workflow.getHandle(rows[0].workflow_id).describe();
      expect(description.typedSearchAttributes.get(defineSearchAttributeKey('AccountName', SearchAttributeType.KEYWORD))).toBe(account.name);
      expect(description.typedSearchAttributes.get(defineSearchAttributeKey('BatchId', SearchAttributeType.KEYWORD))).toBe(accepted.body.batchId);
      expect(await description.memo).toMatchObject({ accountId: account.id, accountName: account.name, batchId: accepted.body.batchId });
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
    expect(done.body).toMatchObject({ status: 'Failed', result: null, errors: [expect.objectContaining({ index: 0, code: 'InsufficientInventory' })] });
    expect(await countEvents(account.id)).toBe(before);
  });

  it('schema errors are a 400 before any workflow starts', async () => {
    const response = await client(account.key).post('/Integration/Events/async', { Events: [{ $type: 'commission', Id: 'X' }] });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ index: 0, eventId: 'X', code: 'Required', field: 'Location' })]));
  });

  it('the same Idempotency-Key gives the same batch', async () => {
    const key = uid('key');
    const events = [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 10))];
    const first = await client(account.key).post('/Integration/Events/async', { Events: events }, { 'Idempotency-Key': key });
    const second = await client(account.key).post('/Integration/Events/async', { Events: events }, { 'Idempotency-Key': key });
    expect(second.body.batchId).toBe(first.body.batchId);
    await settle(account, first.body.statusUrl);
    const { rows } = await sql().query('SELECT count(*)::int AS n FROM events WHERE external_event_id = $1 AND account_id = $2', [events[0].Id, account.id]);
    expect(rows[0].n).toBe(1);
  });

  it("another account's batch is a 404", async () => {
    const accepted = await client(account.key).post('/Integration/Events/async', {
      Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 1))],
    });
    const other = await createAccount('async-other');
    expect((await client(other.key).get(accepted.body.statusUrl)).status).toBe(404);
    expect((await client(account.key).get('/Integration/Events/async/not-a-uuid')).status).toBe(404);
  });
});
