/**
 * CBV values in the forms the two bindings use: JSON-LD names a CBV term by its bare word (`shipping`),
 * XML by its URN (`urn:epcglobal:cbv:bizstep:shipping`) or its Web URI
 * (`https://ref.gs1.org/cbv/BizStep-shipping`). A value that is no CBV term (a company's own URI) is
 * the same in every form.
 */
import { CBV_FORMATS, type CbvFormat } from '../cbv-forms';

export type CbvVocabulary = 'bizstep' | 'disp' | 'btt' | 'sdt' | 'er';

/** GS1-CBV-XML-Format: how CBV values are answered in XML (No_Preference: URNs, what EPCIS 1.2 reads). */
export const CBV_XML_FORMATS = CBV_FORMATS;
export type CbvXmlFormat = CbvFormat;

const WEB_NAME: Record<CbvVocabulary, string> = { bizstep: 'BizStep', disp: 'Disp', btt: 'BTT', sdt: 'SDT', er: 'ER' };
const URN_PREFIX = (vocabulary: CbvVocabulary) => `urn:epcglobal:cbv:${vocabulary}:`;
const WEB_PREFIX = (vocabulary: CbvVocabulary) => `https://ref.gs1.org/cbv/${WEB_NAME[vocabulary]}-`;
const TERM = /^[A-Za-z_]+$/;

/** The JSON-LD form: the bare word of a CBV URN or Web URI, anything else as it is. */
export function cbvWord(vocabulary: CbvVocabulary, value: string): string {
  for (const prefix of [URN_PREFIX(vocabulary), WEB_PREFIX(vocabulary)]) {
    if (value.startsWith(prefix) && TERM.test(value.slice(prefix.length))) return value.slice(prefix.length);
  }
  return value;
}

/** The XML form of a JSON-LD value: a bare word becomes the URN (or Web URI); a URI is turned into the form asked for. */
export function cbvXml(vocabulary: CbvVocabulary, value: string, format: CbvXmlFormat): string {
  const word = cbvWord(vocabulary, value);
  const isTerm = TERM.test(word);
  if (!isTerm) return value;
  if (format === 'Never_Translates') return value === word ? URN_PREFIX(vocabulary) + word : value;
  return (format === 'Always_Web_URI' ? WEB_PREFIX(vocabulary) : URN_PREFIX(vocabulary)) + word;
}

/** A sensor report's type: `gs1:Temperature` in XML, `Temperature` in JSON-LD (the GS1 Web Vocabulary's term). */
export const sensorTypeWord = (value: string): string =>
  /^gs1:[A-Za-z]+$/.test(value) ? value.slice(4) : value.startsWith('https://gs1.org/voc/') ? value.slice(20) : value;
export const sensorTypeXml = (value: string): string => (/^[A-Za-z]+$/.test(value) ? `gs1:${value}` : value);
