import { apikey } from '../../cli/apikey';
import { command } from '../helpers/cli';
import { request } from '../helpers/http';

const apikeyCli = (...args: string[]) => command(apikey, ...args);

describe('npm run apikey', () => {
  const account = `cli-${Date.now()}`;

  it('create prints the key alone; the key passes auth; list shows it; revoke ends it', async () => {
    const created = await apikeyCli('create', '--account', account, '--label', 'ci');
    const key = created.trim();
    expect(created).toBe(`${key}\n`);
    expect(key).toMatch(/^trc_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);

    const me = await request('GET', '/Integration/Account', { key });
    expect(me.status).toBe(200);
    expect(me.body.name).toBe(account);

    const [header, row] = (await apikeyCli('list', '--account', account)).trim().split('\n');
    expect(header.split('\t')).toEqual(['KEY_ID', 'ACCOUNT', 'LABEL', 'CREATED', 'STATE', 'ROLE']);
    const [id, name, label, , state] = row.split('\t');
    expect({ name, label, state }).toEqual({ name: account, label: 'ci', state: 'active' });

    expect(await apikeyCli('revoke', id)).toBe(`revoked ${id}\n`);
    expect((await request('GET', '/Integration/Account', { key })).status).toBe(401);
    expect(await apikeyCli('list', '--account', account)).toContain('revoked');
  });

  it('a second key for the same account reuses the account', async () => {
    const a = (await apikeyCli('create', '--account', `${account}-2`)).trim();
    const b = (await apikeyCli('create', '--account', `${account}-2`)).trim();
    const [ma, mb] = await Promise.all([
      request('GET', '/Integration/Account', { key: a }),
      request('GET', '/Integration/Account', { key: b }),
    ]);
    expect(ma.body.id).toBe(mb.body.id);
  });

  it('create --role support makes a support key, and only on request: a key is an account key by default', async () => {
    const support = (await apikeyCli('create', '--role', 'support', '--account', `${account}-support`)).trim();
    await apikeyCli('create', '--account', `${account}-plain`);
    const roleOf = async (name: string) =>
      (await apikeyCli('list', '--account', name)).trim().split('\n')[1].split('\t').at(-1);
    expect(await roleOf(`${account}-support`)).toBe('support');
    expect(await roleOf(`${account}-plain`)).toBe('account');

    expect((await request('GET', '/Integration/Batches', { key: support })).status).toBe(200);
    await expect(apikeyCli('create', '--role', 'admin', '--account', account)).rejects.toThrow(
      '--role must be one of account, support',
    );
  });
});
