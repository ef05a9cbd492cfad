import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Keys look like `trc_<lookup>_<secret>`: the lookup (8 random bytes, hex) finds the row, the whole key's
 * SHA-256 is what is stored, and the comparison of hashes is constant-time.
 */
const KEY_PATTERN = /^trc_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export const hashKey = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

export function generateKey() {
  const lookup = randomBytes(8).toString('hex');
  const key = `trc_${lookup}_${randomBytes(32).toString('base64url')}`;
  return { key, lookup, hash: hashKey(key) };
}

/** The lookup part of a well-formed key, or undefined for anything else. */
export function lookupOf(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[1];
}

export function keyMatches(key: string, storedHash: Buffer): boolean {
  const candidate = hashKey(key);
  return candidate.length === storedHash.length && timingSafeEqual(candidate, storedHash);
}
