/**
 * GS1 Core Business Vocabulary 2.0: the business steps and dispositions an event may name, and the
 * RFC 8141 URN syntax that custom vocabularies must follow. Pure.
 */

export const CBV_BIZSTEPS = [
  'accepting',
  'arriving',
  'assembling',
  'collecting',
  'commissioning',
  'consigning',
  'creating_class_instance',
  'cycle_counting',
  'decommissioning',
  'departing',
  'destroying',
  'disassembling',
  'dispensing',
  'encoding',
  'entering_exiting',
  'holding',
  'inspecting',
  'installing',
  'killing',
  'loading',
  'other',
  'packing',
  'picking',
  'receiving',
  'removing',
  'repackaging',
  'repairing',
  'replacing',
  'reserving',
  'retail_selling',
  'sampling',
  'sensor_reporting',
  'shipping',
  'staging_outbound',
  'stock_taking',
  'stocking',
  'storing',
  'transporting',
  'unloading',
  'unpacking',
  'void_shipping',
] as const;

export const CBV_DISPOSITIONS = [
  'active',
  'available',
  'completeness_inferred',
  'completeness_verified',
  'conformant',
  'container_closed',
  'container_open',
  'damaged',
  'destroyed',
  'dispensed',
  'disposed',
  'encoded',
  'expired',
  'in_progress',
  'in_transit',
  'inactive',
  'mismatch_instance',
  'mismatch_class',
  'mismatch_quantity',
  'needs_replacement',
  'no_pedigree_match',
  'non_conformant',
  'non_sellable_other',
  'partially_dispensed',
  'recalled',
  'reserved',
  'retail_sold',
  'returned',
  'sellable_accessible',
  'sellable_not_accessible',
  'stolen',
  'unavailable',
  'unknown',
] as const;

export const BIZSTEP_PREFIX = 'urn:epcglobal:cbv:bizstep:';
export const DISPOSITION_PREFIX = 'urn:epcglobal:cbv:disp:';

/**
 * RFC 8141: `urn:` NID `:` NSS, with optional r-, q- and f-components. The NID is 2 to 32 letters, digits
 * or hyphens, starting and ending with a letter or digit; the NSS is pchars and slashes, at least one.
 */
const PCHAR = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})";
const URN = new RegExp(
  `^urn:[A-Za-z0-9][A-Za-z0-9-]{0,30}[A-Za-z0-9]:${PCHAR}(?:${PCHAR}|/)*(?:\\?\\+[^#?]*)?(?:\\?=[^#]*)?(?:#.*)?$`,
  'i',
);

export const isUrn = (value: string): boolean => URN.test(value);

export type VocabularyKind = 'BizStep' | 'Disposition';

const VOCABULARY: Record<VocabularyKind, { prefix: string; words: readonly string[] }> = {
  BizStep: { prefix: BIZSTEP_PREFIX, words: CBV_BIZSTEPS },
  Disposition: { prefix: DISPOSITION_PREFIX, words: CBV_DISPOSITIONS },
};

const HTTP_URI = /^https?:\/\/[^\s/?#]+[^\s]*$/i;

/**
 * Why `value` is not an acceptable business step or disposition, or undefined when it is. As in the
 * GS1 EPCIS 2.0 schema, any URI is: a CBV term (as a URN or as its bare word), a CBV-namespace URN the
 * list does not have yet (producers send ones such as bizstep:transforming), a URN or http(s) URI of
 * the caller's own vocabulary. All are kept as sent.
 */
export function vocabularyIssue(kind: VocabularyKind, value: string): string | undefined {
  const { prefix, words } = VOCABULARY[kind];
  if (isUrn(value) || HTTP_URI.test(value) || words.includes(value)) return undefined;
  return `${kind} "${value}" is neither a URN nor an http(s) URI: send a GS1 CBV value such as ${prefix}${words[0]}, or a URN (urn:<nid>:<nss>) or http(s) URI of your own vocabulary.`;
}
