import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted at every level, no whitespace, so the same event always hashes
 * the same whatever order its fields were written or stored in (jsonb reorders keys).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
    return JSON.stringify(value) ?? 'null';
  }
  // Loops and one string rather than entries/filter/map/join: the ledger hashes every commission with
  // this, and the API every request; sort() without a comparator orders by UTF-16 code units, as `<` does.
  if (Array.isArray(value)) {
    let out = '';
    for (let i = 0; i < value.length; i++) out += `${i ? ',' : ''}${canonicalJson(value[i])}`;
    return `[${out}]`;
  }
  const object = value as Record<string, unknown>;
  let out = '';
  for (const key of Object.keys(object).sort()) {
    const v = object[key];
    if (v !== undefined) out += `${out ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(v)}`;
  }
  return `{${out}}`;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The previous hash of a chain's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * One link of the ledger's hash chain: SHA-256 over the previous hash, the payload hash, the sequence
 * and the event id, joined by `|`. Changing any stored field of any entry breaks this entry or the next.
 */
export const chainHash = (
  previousHash: string,
  payloadHash: string,
  sequence: bigint | number | string,
  eventId: string,
): string => sha256Hex(`${previousHash}|${payloadHash}|${String(sequence)}|${eventId}`);

/**
 * A name-based UUID (version 8 layout, SHA-256 of the name): the same batch and position always give
 * the same event id, so a retried activity writes the ids it wrote before.
 */
export function uuidFromName(name: string): string {
  const hex = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The service id of the event at `index` of a batch: fixed before anything is written. */
export const eventIdOf = (batchId: string, index: number): string => uuidFromName(`${batchId}:event:${index}`);
