/**
 * What a captured event is found by (epcis_originals.match_keys, a GIN index): each identifier of the
 * index lists MATCH_ parameters look in, under the list's name, and each party the event names, under
 * `party`. A capture writes them; db/migrations/20270101000000's epcis_match_keys computes the same in
 * SQL for what was stored before. Pure.
 */
import { createHash } from 'node:crypto';

const MATCH_LISTS = [
  'epc',
  'parentID',
  'inputEPC',
  'outputEPC',
  'epcClass',
  'inputEPCClass',
  'outputEPCClass',
] as const;
const PARTY_FIELD = /(^|[:#/])(productOwner|informationProvider)$/;
/** Past this many bytes an identifier is keyed by its MD5: PostgreSQL refuses a GIN key of over 2,712 bytes. */
const LONGEST_KEYED = 512;

/** An index list MATCH_ parameters look in. */
export type MatchList = (typeof MATCH_LISTS)[number];

/** One key: the kind and the identifier, or an identifier of over 512 bytes by its MD5. */
export function matchKey(kind: MatchList | 'party', id: string): string {
  const keyed =
    Buffer.byteLength(id, 'utf8') > LONGEST_KEYED ? `md5 ${createHash('md5').update(id, 'utf8').digest('hex')}` : id;
  return `${kind} ${keyed}`;
}

const strings = (list: unknown): string[] =>
  Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
const members = (list: unknown, member: string): unknown[] =>
  Array.isArray(list) ? list.map((entry) => (entry as Record<string, unknown> | null)?.[member]) : [];

/** Each identifier of the MATCH_ lists of the event's index, and each party the event names (source and destination lists, GDST's product owner and information provider). */
export function matchKeysOf(
  epcis: Readonly<Record<string, unknown>>,
  index: Readonly<Partial<Record<MatchList, unknown>>>,
): string[] {
  const keys: string[] = [];
  for (const name of MATCH_LISTS) for (const id of strings(index[name])) keys.push(matchKey(name, id));
  const parties = [
    ...members(epcis.sourceList, 'source'),
    ...members(epcis.destinationList, 'destination'),
    ...Object.entries(epcis).flatMap(([name, value]) => (PARTY_FIELD.test(name) ? [value] : [])),
  ];
  for (const party of parties) if (typeof party === 'string') keys.push(matchKey('party', party));
  return keys;
}
