import { generateKey, hashKey, keyMatches, lookupOf } from '../../domain/api-key';

describe('API keys', () => {
  it('carry at least 32 random bytes and are stored only as their SHA-256', () => {
    const { key, lookup, hash } = generateKey();
    const secret = key.slice('trc_'.length + lookup.length + 1);
    expect(Buffer.from(secret, 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(hash.equals(hashKey(key))).toBe(true);
    expect(hash.length).toBe(32);
    expect(lookupOf(key)).toBe(lookup);
  });

  it('match only their own hash', () => {
    const a = generateKey();
    const b = generateKey();
    expect(keyMatches(a.key, a.hash)).toBe(true);
    expect(keyMatches(a.key, b.hash)).toBe(false);
    expect(keyMatches(a.key, Buffer.alloc(3))).toBe(false);
  });

  it('malformed keys have no lookup', () => {
    expect(lookupOf('')).toBeUndefined();
    expect(lookupOf('trc_zz_abc')).toBeUndefined();
    expect(lookupOf(`${generateKey().key}x`)).toBeUndefined();
  });
});
