import { Client } from 'pg';
import { createAccount } from '../factories/accounts';
import { commission, instance, ship, uid } from '../factories/events';
import { request } from '../helpers/http';

/**
 * A sync call wakes when its batch's row is finished: PostgreSQL announces the batch on channel
 * batch_finished when the update to Completed or Failed commits, once, and never for Running.
 */
describe('sync calls learn the outcome from the batch row', () => {
  let listener: Client;
  const announced: string[] = [];

  beforeAll(async () => {
    listener = new Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    listener.on('notification', (message) => announced.push(message.payload ?? ''));
    await listener.query('LISTEN batch_finished');
  });
  afterAll(() => listener.end());

  const until = async (check: () => boolean) => {
    for (let i = 0; i < 50 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  it('announces a completed batch once, and the call answers its result', async () => {
    const account = await createAccount('wait');
    const lot = uid('LOT');
    const response = await request('POST', '/Integration/Events', {
      key: account.key,
      body: { Events: [commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', lot, 5))] },
    });
    expect(response.status).toBe(200);
    expect(response.body.result).toEqual([
      expect.objectContaining({
        status: 'Created',
        productInstances: [{ productId: 'SALMON', lotSerial: lot, quantity: 5 }],
      }),
    ]);
    await until(() => announced.includes(response.body.batchId));
    expect(announced.filter((id) => id === response.body.batchId)).toHaveLength(1);
  });

  it('announces a rejected batch, and the call answers the 400 error list from the row', async () => {
    const account = await createAccount('wait');
    const response = await request('POST', '/Integration/Events', {
      key: account.key,
      body: { Events: [ship({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5))] },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        index: 0,
        code: 'InsufficientInventory',
        field: 'ProductInstances[0].Quantity',
        requested: 5,
        available: 0,
      }),
    ]);
    const { rows } = await listener.query<{ id: string }>('SELECT id FROM batches WHERE account_id = $1', [account.id]);
    await until(() => announced.includes(rows[0].id));
    expect(announced.filter((id) => id === rows[0].id)).toHaveLength(1);
  });
});
