import type { Client } from 'pg';
import { createSequelize } from '../../db/sequelize';

describe('the connections Sequelize makes', () => {
  const sequelize = createSequelize(process.env.DATABASE_URL!, 1);
  afterAll(() => sequelize.close());

  it("listen for 'error' from their construction: an error before Sequelize listens marks the connection invalid", () => {
    const { lib } = sequelize.connectionManager as unknown as { lib: { Client: new () => Client } };
    const client = new lib.Client() as Client & { _invalid?: boolean };
    // EventEmitter throws an 'error' nobody listens for, which ends a process.
    expect(() =>
      client.emit('error', new Error('terminating connection due to unexpected postmaster exit')),
    ).not.toThrow();
    expect(client._invalid).toBe(true);
  });

  it('still answer queries', async () => {
    expect(await sequelize.query('SELECT 1 AS one', { plain: true })).toEqual({ one: 1 });
  });
});
