import { createAccount } from '../factories/accounts';
import { commission, instance, ship, uid } from '../factories/events';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';

describe('the commission ledger (GET /Integration/Ledger/verify)', () => {
  it('chains every commission event once, and a changed entry breaks verification', async () => {
    const account = await createAccount('ledger');
    const api = client(account.key);
    const empty = await api.get('/Integration/Ledger/verify');
    expect(empty.body).toEqual({ entries: 0, headHash: null, valid: true, firstInvalidSequence: null });

    const lot = uid('LOT');
    const batch = [
      commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', lot, 10)),
      ship({ location: 'DOCK', time: '2024-03-02T00:00:00Z' }, instance('SALMON', lot, 1)),
      commission({ location: 'DOCK', time: '2024-03-03T00:00:00Z' }, instance('SALMON', uid('LOT'), 10)),
    ];
    expect((await api.post('/Integration/Events', { Events: batch })).status).toBe(200);
    expect(
      (
        await api.post('/Integration/Events', {
          Events: [commission({ location: 'DOCK', time: '2024-03-04T00:00:00Z' }, instance('SALMON', uid('LOT'), 1))],
        })
      ).status,
    ).toBe(200);

    const verified = await api.get('/Integration/Ledger/verify');
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      entries: 3,
      headHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      valid: true,
      firstInvalidSequence: null,
    });
    const { rows } = await sql().query(
      'SELECT sequence, previous_hash, hash FROM ledger_entries WHERE account_id = $1 ORDER BY sequence',
      [account.id],
    );
    expect(rows.map((r) => Number(r.sequence))).toEqual([1, 2, 3]);
    expect(rows[0].previous_hash).toBe('0'.repeat(64));
    expect(rows[1].previous_hash).toBe(rows[0].hash);

    await sql().query(
      `UPDATE ledger_entries SET payload_hash = repeat('a', 64) WHERE account_id = $1 AND sequence = 2`,
      [account.id],
    );
    const tampered = await api.get('/Integration/Ledger/verify');
    expect(tampered.body).toMatchObject({ entries: 3, valid: false, firstInvalidSequence: 2 });
  });

  it('a changed event payload is found too', async () => {
    const account = await createAccount('ledger');
    const api = client(account.key);
    const event = commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 10));
    expect((await api.post('/Integration/Events', { Events: [event] })).status).toBe(200);
    await sql().query(
      `UPDATE events SET payload = jsonb_set(payload, '{PurchaseOrder}', '"PO-FORGED"') WHERE account_id = $1`,
      [account.id],
    );
    expect((await api.get('/Integration/Ledger/verify')).body).toMatchObject({ valid: false, firstInvalidSequence: 1 });
  });
});
