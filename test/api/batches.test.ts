import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { RETRY_OF } from '../../platform/search-attributes';
import { createAccount, createSupportKey, type TestAccount } from '../factories/accounts';
import { commission, instance, ship, uid } from '../factories/events';
import { client } from '../helpers/http';

async function settle(key: string, url: string) {
  for (let i = 0; i < 300; i++) {
    const response = await client(key).get(url);
    if (response.body.status === 'Completed' || response.body.status === 'Failed') return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`batch ${url} did not finish`);
}

/** A ship of a lot nothing commissioned: refused for InsufficientInventory, nothing stored. */
async function failedShip(account: TestAccount, lot = uid('LOT')) {
  const events = [ship({ location: 'DOCK', time: '2024-03-02T10:00:00Z' }, instance('COD', lot, 5))];
  const accepted = await client(account.key).post('/Integration/Events/async', { Events: events });
  expect(accepted.status).toBe(202);
  const done = await settle(account.key, accepted.body.statusUrl);
  expect(done.body.status).toBe('Failed');
  return { batchId: accepted.body.batchId as string, lot, events };
}

const commissionOf = (account: TestAccount, lot: string) =>
  client(account.key).post('/Integration/Events', {
    Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('COD', lot, 10))],
  });

describe('/Integration/Batches', () => {
  let acme: TestAccount;
  let other: TestAccount;
  beforeAll(async () => {
    acme = await createAccount('batches');
    other = await createAccount('batches-other');
  });

  it('lists the caller’s batches newest first, with the first error of a failed one', async () => {
    const { batchId } = await failedShip(acme);
    const lot = uid('LOT');
    expect((await commissionOf(acme, lot)).status).toBe(200);

    const list = await client(acme.key).get('/Integration/Batches');
    expect(list.status).toBe(200);
    const [newest, failed] = list.body.results;
    expect(newest).toMatchObject({
      account: acme.name,
      mode: 'sync',
      status: 'Completed',
      eventCount: 1,
      firstError: null,
      retryOf: null,
      retriedBy: null,
    });
    expect(failed).toMatchObject({
      batchId,
      mode: 'async',
      status: 'Failed',
      firstError: expect.objectContaining({ index: 0, code: 'InsufficientInventory' }),
      statusUrl: `/Integration/Batches/${batchId}`,
      requestId: expect.any(String),
      // The test stack runs no Temporal UI (TEMPORAL_UI_PORT=0): nothing to link to.
      workflowUrl: null,
    });

    const onlyFailed = await client(acme.key).get('/Integration/Batches?Status=Failed');
    expect(onlyFailed.body.results.map((b: { status: string }) => b.status)).toEqual(
      onlyFailed.body.results.map(() => 'Failed'),
    );
    expect(onlyFailed.body.results.map((b: { batchId: string }) => b.batchId)).toContain(batchId);

    const future = await client(acme.key).get('/Integration/Batches?Since=2999-01-01T00:00:00Z');
    expect(future.body).toMatchObject({ totalItems: 0, results: [] });

    const paged = await client(acme.key).get('/Integration/Batches?PageSize=1&PageNumber=2');
    expect(paged.body).toMatchObject({ pageSize: 1, pageNumber: 2, totalItems: 2, results: [{ batchId }] });
  });

  it('names a batch by its service id and, beside it, by the Idempotency-Key the caller sent it with', async () => {
    const idempotencyKey = uid('ORDER');
    const lot = uid('LOT');
    const events = [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('COD', lot, 10))];
    const sent = await client(acme.key).post(
      '/Integration/Events',
      { Events: events },
      { 'Idempotency-Key': idempotencyKey },
    );
    expect(sent.status).toBe(200);
    const shown = await client(acme.key).get(`/Integration/Batches/${sent.body.batchId}`);
    expect(shown.body).toMatchObject({ batchId: sent.body.batchId, idempotencyKey });
    const listed = await client(acme.key).get('/Integration/Batches?PageSize=100');
    const [withoutKey] = listed.body.results.filter((b: { batchId: string }) => b.batchId !== sent.body.batchId);
    expect(withoutKey.idempotencyKey).toBeNull();
  });

  it('shows one batch with every error, and the stored request on include=request', async () => {
    const { batchId, events } = await failedShip(acme);
    const shown = await client(acme.key).get(`/Integration/Batches/${batchId}`);
    expect(shown.status).toBe(200);
    expect(shown.body.errors).toEqual([
      expect.objectContaining({ code: 'InsufficientInventory', eventId: events[0].Id }),
    ]);
    expect(shown.body.request).toBeUndefined();
    const withRequest = await client(acme.key).get(`/Integration/Batches/${batchId}?include=request`);
    expect(withRequest.body.request).toEqual({ Events: events });
  });

  it('names the offending query parameter in a 400', async () => {
    for (const [query, field] of [
      ['Status=Broken', 'Status'],
      ['Since=yesterday', 'Since'],
      ['Since=2016-12-31T23:59:60Z', 'Since'],
      ['PageSize=0', 'PageSize'],
      ['Colour=red', 'Colour'],
    ]) {
      const response = await client(acme.key).get(`/Integration/Batches?${query}`);
      expect(response.status).toBe(400);
      expect(Object.keys(response.body.errors)).toEqual([field]);
    }
    const include = await client(acme.key).get(`/Integration/Batches/${uid('x')}?include=everything`);
    expect(include.status).toBe(400);
    expect(Object.keys(include.body.errors)).toEqual(['include']);
  });

  it('another account’s key neither sees nor retries the batch', async () => {
    const { batchId } = await failedShip(acme);
    const list = await client(other.key).get('/Integration/Batches');
    expect(list.body.results.map((b: { batchId: string }) => b.batchId)).not.toContain(batchId);
    expect((await client(other.key).get(`/Integration/Batches?Account=${acme.name}`)).body.totalItems).toBe(0);
    expect((await client(other.key).get(`/Integration/Batches/${batchId}`)).status).toBe(404);
    expect((await client(other.key).post(`/Integration/Batches/${batchId}/retry`)).status).toBe(404);
    expect((await client(other.key).get(`/Integration/Events/async/${batchId}`)).status).toBe(404);
  });

  it('a retry after the cause is fixed completes, and the original says so in retriedBy', async () => {
    const { batchId, lot } = await failedShip(acme);

    // Retried before the fix: refused again, for the same reason; the original may be retried again.
    const early = await client(acme.key).post(`/Integration/Batches/${batchId}/retry`);
    expect(early.status).toBe(202);
    expect(early.body).toMatchObject({
      status: 'Accepted',
      retryOf: batchId,
      statusUrl: `/Integration/Batches/${early.body.batchId}`,
    });
    expect((await settle(acme.key, early.body.statusUrl)).body).toMatchObject({
      status: 'Failed',
      mode: 'retry',
      retryOf: batchId,
    });
    expect((await client(acme.key).get(`/Integration/Events/async/${batchId}`)).body.retriedBy).toEqual({
      batchId: early.body.batchId,
      status: 'Failed',
    });

    expect((await commissionOf(acme, lot)).status).toBe(200);
    const retry = await client(acme.key).post(`/Integration/Batches/${batchId}/retry`);
    expect(retry.status).toBe(202);
    const done = await settle(acme.key, retry.body.statusUrl);
    expect(done.body).toMatchObject({ status: 'Completed', retryOf: batchId, eventCount: 1 });

    const original = await client(acme.key).get(`/Integration/Events/async/${batchId}`);
    expect(original.body).toMatchObject({
      status: 'Failed',
      retriedBy: { batchId: retry.body.batchId, status: 'Completed' },
    });
    expect((await client(acme.key).get(`/Integration/Batches/${batchId}`)).body.retriedBy).toEqual({
      batchId: retry.body.batchId,
      status: 'Completed',
    });

    // Operators find the retry in the Temporal UI by the batch it retries, and read what it is from the list.
    const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });
    try {
      const description = await new Client({ connection }).workflow.getHandle(`batch-${retry.body.batchId}`).describe();
      expect(description.typedSearchAttributes.get(RETRY_OF)).toBe(batchId);
      expect(await description.staticSummary()).toBe(`${acme.name} · retry · 1 event · retry of ${batchId}`);
    } finally {
      await connection.close();
    }

    const again = await client(acme.key).post(`/Integration/Batches/${batchId}/retry`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ batchId, retriedBy: { batchId: retry.body.batchId, status: 'Completed' } });
    expect(again.body.detail).toContain('already retried successfully');
  });

  it('two retries sent at once make one new batch; the other is refused while it is under way', async () => {
    const { batchId } = await failedShip(acme);
    const answers = await Promise.all([0, 1].map(() => client(acme.key).post(`/Integration/Batches/${batchId}/retry`)));
    expect(answers.map((a) => a.status).sort((a, b) => a - b)).toEqual([202, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    const accepted = answers.find((a) => a.status === 202)!;
    // The second request waited for the first's lock on the original, then found its retry still under way.
    expect(refused.body.retriedBy).toEqual({
      batchId: accepted.body.batchId,
      status: expect.stringMatching(/^(Accepted|Running)$/),
    });
    await settle(acme.key, accepted.body.statusUrl);
  });

  it('refuses with 409 to retry a batch that did not fail', async () => {
    const lot = uid('LOT');
    const created = await commissionOf(acme, lot);
    const response = await client(acme.key).post(`/Integration/Batches/${created.body.batchId}/retry`);
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      batchId: created.body.batchId,
      retriedBy: null,
      detail: expect.stringContaining('only Failed batches are retried'),
    });
  });

  it('a failed retry whose sibling completed is replaced: not open, not retried, replacedBy names the batch that stored its events', async () => {
    const { batchId, lot } = await failedShip(acme);
    const early = await client(acme.key).post(`/Integration/Batches/${batchId}/retry`);
    expect((await settle(acme.key, early.body.statusUrl)).body).toMatchObject({
      status: 'Failed',
      replacedBy: null,
      abandoned: null,
    });
    // Before anything stored its events, the failed retry is open and may be retried.
    expect((await client(acme.key).get(`/Integration/Batches/${early.body.batchId}`)).body).toMatchObject({
      replacedBy: null,
    });

    expect((await commissionOf(acme, lot)).status).toBe(200);
    const retry = await client(acme.key).post(`/Integration/Batches/${batchId}/retry`);
    expect((await settle(acme.key, retry.body.statusUrl)).body.status).toBe('Completed');

    for (const id of [batchId, early.body.batchId]) {
      expect((await client(acme.key).get(`/Integration/Batches/${id}`)).body).toMatchObject({
        status: 'Failed',
        replacedBy: retry.body.batchId,
      });
    }
    const listed = await client(acme.key).get('/Integration/Batches?Status=Failed');
    expect(listed.body.results.find((b: { batchId: string }) => b.batchId === early.body.batchId)).toMatchObject({
      replacedBy: retry.body.batchId,
    });

    // The ghost: retrying the earlier failed retry is a clear 409, not a third failure on DuplicateEventId.
    const ghost = await client(acme.key).post(`/Integration/Batches/${early.body.batchId}/retry`);
    expect(ghost.status).toBe(409);
    expect(ghost.body).toMatchObject({
      batchId: early.body.batchId,
      replacedBy: retry.body.batchId,
      detail: expect.stringContaining('was replaced'),
    });
  });

  it('a retry of a retry, or a new batch with the same event ids, replaces the failed batches too', async () => {
    // A retry of a failed retry completes: the original and the first retry are both replaced by it.
    const { batchId, lot } = await failedShip(acme);
    const first = await client(acme.key).post(`/Integration/Batches/${batchId}/retry`);
    await settle(acme.key, first.body.statusUrl);
    expect((await commissionOf(acme, lot)).status).toBe(200);
    const second = await client(acme.key).post(`/Integration/Batches/${first.body.batchId}/retry`);
    expect((await settle(acme.key, second.body.statusUrl)).body).toMatchObject({
      status: 'Completed',
      retryOf: first.body.batchId,
    });
    for (const id of [batchId, first.body.batchId])
      expect((await client(acme.key).get(`/Integration/Batches/${id}`)).body.replacedBy).toBe(second.body.batchId);
    const original = await client(acme.key).post(`/Integration/Batches/${batchId}/retry`);
    expect(original.status).toBe(409);
    expect(original.body).toMatchObject({
      replacedBy: second.body.batchId,
      retriedBy: { batchId: first.body.batchId, status: 'Failed' },
    });

    // The integrator fixed the cause and sent the same events again as a new batch, not as a retry.
    const failed = await failedShip(acme);
    expect((await commissionOf(acme, failed.lot)).status).toBe(200);
    const resent = await client(acme.key).post('/Integration/Events', { Events: failed.events });
    expect(resent.status).toBe(200);
    expect((await client(acme.key).get(`/Integration/Batches/${failed.batchId}`)).body).toMatchObject({
      retriedBy: null,
      replacedBy: resent.body.batchId,
    });
    expect((await client(acme.key).post(`/Integration/Batches/${failed.batchId}/retry`)).status).toBe(409);
  });

  it('a batch of two events stays open while only one of them is stored', async () => {
    const lots = [uid('LOT'), uid('LOT')];
    const events = lots.map((lot) => ship({ location: 'DOCK', time: '2024-03-02T10:00:00Z' }, instance('COD', lot, 5)));
    const accepted = await client(acme.key).post('/Integration/Events/async', { Events: events });
    expect((await settle(acme.key, accepted.body.statusUrl)).body.status).toBe('Failed');
    expect((await commissionOf(acme, lots[0])).status).toBe(200);
    expect((await client(acme.key).post('/Integration/Events', { Events: [events[0]] })).status).toBe(200);
    expect((await client(acme.key).get(`/Integration/Batches/${accepted.body.batchId}`)).body.replacedBy).toBeNull();
  });

  it('a support key abandons a failed batch with a reason: kept, shown, logged with the key id, not retried', async () => {
    const support = await createSupportKey();
    const { batchId } = await failedShip(other);
    const reason = 'Test batch sent to production by mistake; the sender confirmed.';

    const byAccount = await client(other.key).post(`/Integration/Batches/${batchId}/abandon`, { Reason: reason });
    expect(byAccount.status).toBe(403);
    expect(byAccount.body.title).toContain('Only a support key');
    for (const [body, field] of [
      [{}, 'Reason'],
      [{ Reason: '   ' }, 'Reason'],
      [{ Reason: 'x'.repeat(2001) }, 'Reason'],
      [{ Reason: reason, Colour: 'red' }, 'Colour'],
    ] as const) {
      const refused = await client(support.key).post(`/Integration/Batches/${batchId}/abandon`, body);
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.errors)).toEqual([field]);
    }
    expect((await client(support.key).get(`/Integration/Batches/${batchId}`)).body.abandoned).toBeNull();

    const abandoned = await client(support.key).post(`/Integration/Batches/${batchId}/abandon`, {
      Reason: ` ${reason} `,
    });
    expect(abandoned.status).toBe(200);
    const expected = {
      status: 'Failed',
      replacedBy: null,
      abandoned: { reason, at: expect.any(String), keyId: support.keyId },
    };
    expect(abandoned.body).toMatchObject(expected);
    // The integrator sees it too, in the batch and in the list.
    expect((await client(other.key).get(`/Integration/Batches/${batchId}`)).body).toMatchObject(expected);
    const listed = await client(other.key).get('/Integration/Batches?Status=Failed');
    expect(listed.body.results.find((b: { batchId: string }) => b.batchId === batchId)).toMatchObject(expected);

    const retry = await client(support.key).post(`/Integration/Batches/${batchId}/retry`);
    expect(retry.status).toBe(409);
    expect(retry.body.detail).toContain('was abandoned');
    expect(retry.body.detail).toContain(reason);
    const again = await client(support.key).post(`/Integration/Batches/${batchId}/abandon`, {
      Reason: 'another reason',
    });
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain(reason);

    const log = fs.readFileSync(path.join(process.env.STACK_DIR!, 'stack.log'), 'utf8');
    const line = log
      .split('\n')
      .filter((l) => l.includes('"supportAction"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.supportAction === 'abandon batch' && l.batchId === batchId);
    expect(line).toMatchObject({ keyId: support.keyId, account: other.name, reason });
  });

  it('refuses with 409 to abandon a batch that did not fail, or that was replaced', async () => {
    const support = await createSupportKey();
    const created = await commissionOf(acme, uid('LOT'));
    const completed = await client(support.key).post(`/Integration/Batches/${created.body.batchId}/abandon`, {
      Reason: 'no',
    });
    expect(completed.status).toBe(409);
    expect(completed.body.detail).toContain('only a Failed batch is abandoned');

    const { batchId, lot } = await failedShip(acme);
    expect((await commissionOf(acme, lot)).status).toBe(200);
    const retry = await client(acme.key).post(`/Integration/Batches/${batchId}/retry`);
    await settle(acme.key, retry.body.statusUrl);
    const replaced = await client(support.key).post(`/Integration/Batches/${batchId}/abandon`, { Reason: 'no' });
    expect(replaced.status).toBe(409);
    expect(replaced.body).toMatchObject({ batchId, replacedBy: retry.body.batchId });
    expect((await client(support.key).post(`/Integration/Batches/${uid('x')}/abandon`, { Reason: 'no' })).status).toBe(
      404,
    );
  });

  it('a support key sees and retries every account’s batches, each action logged with its key id', async () => {
    const support = await createSupportKey();
    const { batchId, lot } = await failedShip(other);
    const listed = await client(support.key).get(`/Integration/Batches?Status=Failed&Account=${other.name}`);
    expect(listed.body.results[0]).toMatchObject({ batchId, account: other.name });
    expect((await client(support.key).get(`/Integration/Batches/${batchId}`)).body.account).toBe(other.name);

    expect((await commissionOf(other, lot)).status).toBe(200);
    const retry = await client(support.key).post(`/Integration/Batches/${batchId}/retry`);
    expect(retry.status).toBe(202);
    expect((await settle(support.key, retry.body.statusUrl)).body).toMatchObject({
      status: 'Completed',
      account: other.name,
    });
    // The integrator sees the retry of its batch too.
    expect((await client(other.key).get(`/Integration/Events/async/${batchId}`)).body.retriedBy).toEqual({
      batchId: retry.body.batchId,
      status: 'Completed',
    });

    const log = fs.readFileSync(path.join(process.env.STACK_DIR!, 'stack.log'), 'utf8');
    const retried = log
      .split('\n')
      .filter((line) => line.includes('"supportAction"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.supportAction === 'retry batch' && line.batchId === batchId);
    expect(retried).toMatchObject({ keyId: support.keyId, account: other.name, retryBatchId: retry.body.batchId });
  });
});
