import { createAccount } from '../factories/accounts';
import { instance, ship, uid } from '../factories/events';
import { batch } from '../../cli/batch';
import { command } from '../helpers/cli';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';

describe('npm run batch retry, failing again', () => {
  it('prints every error of the batch (read from its row), not only the first the workflow names', async () => {
    const account = await createAccount('cli-again');
    const events = [
      ship({ location: 'DOCK', time: '2024-03-05T00:00:00Z' }, instance('SALMON', uid('LOT'), 4)),
      ship({ location: 'DOCK', time: '2024-03-05T00:00:00Z' }, instance('SALMON', uid('LOT'), 5)),
    ];
    expect((await client(account.key).post('/Integration/Events', { Events: events })).status).toBe(400);
    const { rows } = await sql().query<{ id: string }>(
      `SELECT id FROM batches WHERE account_id = $1 AND status = 'Failed'`,
      [account.id],
    );
    const retried = await command(batch, 'retry', rows[0].id).then(
      () => 'retried',
      (error: Error) => error.message,
    );
    expect(retried).toContain('Failed again');
    expect(retried).toContain(`event 0 ${events[0].Id}: InsufficientInventory`);
    expect(retried).toContain(`event 1 ${events[1].Id}: InsufficientInventory`);
  });
});
