import type { Transaction } from 'sequelize';
import { generateKey, keyMatches, lookupOf } from '../../domain/api-key';
import { Account, ApiKey } from '../models';

export const ACCOUNT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

export async function findOrCreateAccount(name: string, transaction?: Transaction): Promise<Account> {
  if (!ACCOUNT_NAME_PATTERN.test(name)) {
    throw new Error(`Account name "${name}" must be 1-63 letters, digits, '.', '_' or '-', starting with a letter or digit.`);
  }
  const [account] = await Account.findOrCreate({ where: { name }, transaction });
  return account;
}

export async function createApiKey(accountName: string, label: string | null): Promise<{ key: string; apiKey: ApiKey; account: Account }> {
  const account = await findOrCreateAccount(accountName);
  const generated = generateKey();
  const apiKey = await ApiKey.create({ accountId: account.id, lookup: generated.lookup, keyHash: generated.hash, label, revokedAt: null });
  return { key: generated.key, apiKey, account };
}

/** The account a presented key belongs to, or null when the key is unknown, malformed or revoked. */
export async function authenticate(presented: string): Promise<Account | null> {
  const lookup = lookupOf(presented);
  if (!lookup) return null;
  // Every request runs this: key and account in one round trip.
  const apiKey = await ApiKey.findOne({ where: { lookup }, include: [{ model: Account, as: 'account', required: true }] });
  if (!apiKey || apiKey.revokedAt || !keyMatches(presented, apiKey.keyHash)) return null;
  return apiKey.account ?? null;
}
