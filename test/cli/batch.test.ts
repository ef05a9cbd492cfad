import { batch } from '../../cli/batch';
import { createAccount } from '../factories/accounts';
import { commission, instance, ship, uid } from '../factories/events';
import { command } from '../helpers/cli';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';

const batchCli = (...args: string[]) => command(batch, ...args);

/** Waits for the batch's workflow to record it Failed. */
async function failedWithin(batchId: string, seconds = 30): Promise<void> {
  for (const deadline = Date.now() + seconds * 1000; Date.now() < deadline;) {
    const { rows } = await sql().query<{ status: string }>('SELECT status FROM batches WHERE id = $1', [batchId]);
    if (rows[0]?.status === 'Failed') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`batch ${batchId} did not fail within ${seconds} s`);
}

describe('npm run batch (support tooling)', () => {
  it('lists failed batches, shows one, and retries it as a new batch once the stock is there', async () => {
    const account = await createAccount('cli');
    const api = client(account.key);
    const lot = uid('LOT');
    const early = ship({ location: 'DOCK', time: '2024-03-05T00:00:00Z' }, instance('SALMON', lot, 4));
    const failed = await api.post('/Integration/Events', { Events: [early] });
    expect(failed.status).toBe(400);
    const { rows } = await sql().query<{ id: string }>(
      `SELECT id FROM batches WHERE account_id = $1 AND status = 'Failed'`,
      [account.id],
    );
    expect(rows).toHaveLength(1);
    const batchId = rows[0].id;

    const list = await batchCli('list', '--status', 'Failed', '--account', account.name);
    expect(list.trim().split('\n')).toEqual([
      'BATCH_ID\tACCOUNT\tMODE\tSTATUS\tEVENTS\tSUBMITTED\tCOMPLETED\tWORKFLOW_ID\tCASE',
      // Its caller holds the 400: no open case, but it can still be retried.
      expect.stringMatching(
        new RegExp(`^${batchId}\t${account.name}\tsync\tFailed\t1 events\t.*\tanswered: refused in its call's 400$`),
      ),
    ]);
    // --limit takes a whole number, as every numeric option: anything else is refused, not read as 50.
    for (const limit of ['ten', '0', '2.5'])
      await expect(batchCli('list', '--limit', limit)).rejects.toThrow(
        `--limit must be a whole number from 1 to 1000000 (got "${limit}")`,
      );
    expect(await batchCli('list', '--status', 'Failed', '--account', account.name, '--limit', '1')).toBe(list);
    const shown = JSON.parse(await batchCli('show', batchId));
    expect(shown).toMatchObject({
      id: batchId,
      status: 'Failed',
      account: account.name,
      errors: [expect.objectContaining({ code: 'InsufficientInventory' })],
    });

    expect(
      (
        await api.post('/Integration/Events', {
          Events: [commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', lot, 10))],
        })
      ).status,
    ).toBe(200);
    const retried = await batchCli('retry', batchId);
    expect(retried).toMatch(/Completed, 1 events created/);
    const { rows: after } = await sql().query(
      `SELECT status, retry_of, mode FROM batches WHERE account_id = $1 AND retry_of = $2`,
      [account.id, batchId],
    );
    expect(after).toEqual([{ status: 'Completed', retry_of: batchId, mode: 'retry' }]);
    await expect(batchCli('retry', batchId)).rejects.toThrow('already retried successfully');
    const retryId = (await sql().query<{ id: string }>(`SELECT id FROM batches WHERE retry_of = $1`, [batchId])).rows[0]
      .id;
    const replaced = await batchCli('list', '--status', 'Failed', '--account', account.name);
    expect(replaced).toContain(`\treplaced by ${retryId}\n`);
    expect(JSON.parse(await batchCli('show', batchId))).toMatchObject({ replacedBy: retryId });
    await expect(batchCli('retry', retryId)).rejects.toThrow('only Failed batches are retried');
  });

  it('abandons a failed batch with a reason, which list and show then carry; a blank reason or a second abandon is refused', async () => {
    const account = await createAccount('cli');
    // Sent async: nobody holds its refusal, so it is an open case until support abandons it.
    const accepted = await client(account.key).post('/Integration/Events/async', {
      Events: [ship({ location: 'DOCK', time: '2024-03-05T00:00:00Z' }, instance('SALMON', uid('LOT'), 4))],
    });
    expect(accepted.status).toBe(202);
    const batchId = accepted.body.batchId as string;
    await failedWithin(batchId);

    await expect(batchCli('abandon', batchId)).rejects.toThrow('abandon needs --reason');
    await expect(batchCli('abandon', batchId, '--reason', '  ')).rejects.toThrow('abandon needs --reason');
    const done = await batchCli('abandon', batchId, '--reason', 'Sent twice by the ERP; the sender confirmed.');
    expect(done).toContain(
      `batch ${batchId} (${account.name}): Abandoned: Sent twice by the ERP; the sender confirmed.`,
    );
    expect(await batchCli('list', '--account', account.name)).toContain(
      '\tabandoned: Sent twice by the ERP; the sender confirmed.\n',
    );
    expect(JSON.parse(await batchCli('show', batchId))).toMatchObject({
      abandonedReason: 'Sent twice by the ERP; the sender confirmed.',
      abandonedByKeyId: null,
    });
    expect((await client(account.key).get(`/Integration/Batches/${batchId}`)).body.abandoned).toEqual({
      reason: 'Sent twice by the ERP; the sender confirmed.',
      at: expect.any(String),
      keyId: null,
    });
    await expect(batchCli('abandon', batchId, '--reason', 'again')).rejects.toThrow('It stays abandoned');
    await expect(batchCli('retry', batchId)).rejects.toThrow('was abandoned');
  });
});
