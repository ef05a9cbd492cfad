import { randomBytes } from 'node:crypto';
import type { ApiKeyRole } from '../../db/models';
import { createApiKey } from '../../db/repositories/accounts';
import { models } from '../helpers/db';

export interface TestAccount {
  id: string;
  name: string;
  key: string;
  keyId: string;
}

/** A support key (`apikey create --role support`), in an account of its own. */
export const createSupportKey = (): Promise<TestAccount> => createAccount('support', 'support');

/** A new account with a fresh key: every test file works in accounts of its own. */
export async function createAccount(prefix = 'test', role: ApiKeyRole = 'account'): Promise<TestAccount> {
  models();
  const name = `${prefix}-${randomBytes(6).toString('hex')}`;
  const { key, apiKey, account } = await createApiKey(name, 'jest', role);
  return { id: account.id, name, key, keyId: apiKey.id };
}
