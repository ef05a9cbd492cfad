/**
 * The three spellings of a CBV 2.0 term: the bare word JSON-LD uses (`shipping`), its URN
 * (`urn:epcglobal:cbv:bizstep:shipping`) and its Web URI (`https://ref.gs1.org/cbv/BizStep-shipping`).
 * GS1-CBV-XML-Format asks for one of them; the event hash (CBV 2.0) reads the Web URI. Pure.
 */

/** The CBV vocabularies an event's values come from, with the URN infix and Web URI prefix of each. */
export const CBV_VOCABULARIES = {
  bizStep: { urn: 'bizstep', web: 'BizStep' },
  disposition: { urn: 'disp', web: 'Disp' },
  bizTransactionType: { urn: 'btt', web: 'BTT' },
  sourceDestType: { urn: 'sdt', web: 'SDT' },
  errorReason: { urn: 'er', web: 'ER' },
} as const;
export type CbvVocabulary = keyof typeof CBV_VOCABULARIES;

export const CBV_FORMATS = ['No_Preference', 'Always_Web_URI', 'Always_URN', 'Never_Translates'] as const;
export type CbvFormat = (typeof CBV_FORMATS)[number];

/** The bare word of a CBV term in any of its spellings; undefined for a term of no CBV vocabulary (a custom URI). */
export function cbvWord(vocabulary: CbvVocabulary, value: string): string | undefined {
  const { urn, web } = CBV_VOCABULARIES[vocabulary];
  if (/^[a-z][a-z_]*$/.test(value)) return value;
  if (value.startsWith(`urn:epcglobal:cbv:${urn}:`))
    return value.slice(`urn:epcglobal:cbv:${urn}:`.length) || undefined;
  if (value.startsWith(`https://ref.gs1.org/cbv/${web}-`))
    return value.slice(`https://ref.gs1.org/cbv/${web}-`.length) || undefined;
  return undefined;
}

/** A CBV term in the spelling asked for; a custom URI (or Never_Translates) as it is. */
export function cbvSpelling(vocabulary: CbvVocabulary, value: string, format: CbvFormat): string {
  const word = format === 'Never_Translates' ? undefined : cbvWord(vocabulary, value);
  if (word === undefined) return value;
  const { urn, web } = CBV_VOCABULARIES[vocabulary];
  return format === 'Always_URN' ? `urn:epcglobal:cbv:${urn}:${word}` : `https://ref.gs1.org/cbv/${web}-${word}`;
}
