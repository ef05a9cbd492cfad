import type { Transaction } from 'sequelize';
import { generateKey, keyMatches, lookupOf } from '../../domain/api-key';
import { Account, ApiKey, type ApiKeyRole } from '../models';

export const ACCOUNT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

export async function findOrCreateAccount(name: string, transaction?: Transaction): Promise<Account> {
  if (!ACCOUNT_NAME_PATTERN.test(name)) {
    throw new Error(
      `Account name "${name}" must be 1-63 letters, digits, '.', '_' or '-', starting with a letter or digit.`,
    );
  }
  const [account] = await Account.findOrCreate({ where: { name }, transaction });
  return account;
}

export async function createApiKey(
  accountName: string,
  label: string | null,
  role: ApiKeyRole = 'account',
): Promise<{ key: string; apiKey: ApiKey; account: Account }> {
  const account = await findOrCreateAccount(accountName);
  const generated = generateKey();
  const apiKey = await ApiKey.create({
    accountId: account.id,
    lookup: generated.lookup,
    keyHash: generated.hash,
    label,
    role,
    revokedAt: null,
  });
  return { key: generated.key, apiKey, account };
}

/** Who is calling: the key's account, and the key itself (its id names the caller in logs; its role what it may do). */
export interface Caller {
  account: Account;
  keyId: string;
  role: ApiKeyRole;
}

/** The caller a presented key stands for, or null when the key is unknown, malformed or revoked. */
export async function authenticate(presented: string): Promise<Caller | null> {
  const lookup = lookupOf(presented);
  if (!lookup) return null;
  // Every request runs this: key and account in one round trip.
  const apiKey = await ApiKey.findOne({
    where: { lookup },
    include: [{ model: Account, as: 'account', required: true }],
  });
  if (!apiKey || apiKey.revokedAt || !keyMatches(presented, apiKey.keyHash)) return null;
  return apiKey.account ? { account: apiKey.account, keyId: apiKey.id, role: apiKey.role } : null;
}
