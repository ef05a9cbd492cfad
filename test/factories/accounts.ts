import { randomBytes } from 'node:crypto';
import { createApiKey } from '../../db/repositories/accounts';
import { models } from '../helpers/db';

export interface TestAccount {
  id: string;
  name: string;
  key: string;
  keyId: string;
}

/** A new account with a fresh key: every test file works in accounts of its own. */
export async function createAccount(prefix = 'test'): Promise<TestAccount> {
  models();
  const name = `${prefix}-${randomBytes(6).toString('hex')}`;
  const { key, apiKey, account } = await createApiKey(name, 'jest');
  return { id: account.id, name, key, keyId: apiKey.id };
}
