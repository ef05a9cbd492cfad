/**
 * CBV 2.0 event hash ids (`ni:///sha-256;…?ver=CBV2.0`, GS1 CBV 2.0 "Event hash ID"): the SHA-256 of
 * the event's pre-hash string, in which every field is canonical whatever binding or spelling carried
 * it (EPC URNs as Digital Links on id.gs1.org, CBV terms as Web URIs, times in UTC to the millisecond,
 * lists sorted) and eventID, recordTime, errorDeclaration and certificationInfo are left out. Computed
 * from the parsed event model, so an event read from XML hashes as its JSON-LD twin.
 *
 * Where the standard leaves room, this follows OpenEPCIS's generator (Maven Central
 * io.openepcis:openepcis-event-hash-generator), whose hashes over GS1's examples are the test oracle
 * (test/fixtures/event-hash); where OpenEPCIS leaves out what the standard's rules keep (repeated
 * extension elements in document order, an extension's value beside its attributes, extensions inside
 * readPoint and bizLocation), the rules win (test/domain/event-hash-rules.test.ts). Pure.
 */
import { createHash } from 'node:crypto';
import { canonicalIdentifier, checkDigit, memoised } from './identifiers';
import { cbvSpelling, type CbvVocabulary } from './cbv-forms';

type Json = Record<string, unknown>;
/** Namespace prefix → IRI, from the document's @context (XML: its xmlns declarations). */
export type Namespaces = Readonly<Record<string, string>>;

const EPC_LISTS = [
  'epcList',
  'parentID',
  'inputEPCList',
  'childEPCs',
  'quantityList',
  'childQuantityList',
  'inputQuantityList',
  'outputEPCList',
  'outputQuantityList',
] as const;
/** The standard fields in pre-hash order, after type, eventTime and eventTimeZoneOffset. */
const FIELD_ORDER = [
  ...EPC_LISTS,
  'action',
  'transformationID',
  'bizStep',
  'disposition',
  'persistentDisposition',
  'readPoint',
  'bizLocation',
  'bizTransactionList',
  'sourceList',
  'destinationList',
  'sensorElementList',
  'ilmd',
] as const;
/** Fields the hash leaves out: what may differ between two captures of one event. */
const EXCLUDED = new Set([
  'eventID',
  'recordTime',
  'errorDeclaration',
  'certificationInfo',
  '@context',
  'type',
  'eventTime',
  'eventTimeZoneOffset',
  'rdfs:comment',
  'comment',
]);
const STANDARD_FIELDS: ReadonlySet<string> = new Set([...FIELD_ORDER, ...EXCLUDED]);
const SENSOR_METADATA = [
  'time',
  'startTime',
  'endTime',
  'deviceID',
  'deviceMetadata',
  'rawData',
  'dataProcessingMethod',
  'bizRules',
];
const SENSOR_REPORT = [
  'type',
  'exception',
  'deviceID',
  'deviceMetadata',
  'rawData',
  'dataProcessingMethod',
  'time',
  'microorganism',
  'chemicalSubstance',
  'value',
  'component',
  'stringValue',
  'booleanValue',
  'hexBinaryValue',
  'uriValue',
  'minValue',
  'maxValue',
  'meanValue',
  'sDev',
  'percRank',
  'percValue',
  'uom',
  'coordinateReferenceSystem',
];
const TIMES = new Set(['eventTime', 'time', 'startTime', 'endTime']);
/** What is not a user extension inside a sensor element, its metadata, a report, a readPoint or bizLocation. */
const SENSOR_METADATA_FIELDS: ReadonlySet<string> = new Set([...SENSOR_METADATA, ...EXCLUDED]);
const SENSOR_REPORT_FIELDS: ReadonlySet<string> = new Set([...SENSOR_REPORT, ...EXCLUDED]);
const SENSOR_ELEMENT_FIELDS: ReadonlySet<string> = new Set(['sensorMetadata', 'sensorReport', ...EXCLUDED]);
const LOCATION_FIELDS: ReadonlySet<string> = new Set(['id']);

/** The GS1 primary keys a Digital Link path may start with, by the short name some Digital Links use in place of the AI. */
const PRIMARY_KEY_NAMES: Record<string, string> = {
  gtin: '01',
  sscc: '00',
  gdti: '253',
  gcn: '255',
  ginc: '401',
  gsin: '402',
  gln: '414',
  pgln: '417',
  grai: '8003',
  giai: '8004',
  itip: '8006',
  cpid: '8010',
  gmn: '8013',
  gsrnp: '8017',
  gsrn: '8018',
};
const PRIMARY_KEYS = new Set(Object.values(PRIMARY_KEY_NAMES));
/** Every short name a Digital Link may use in place of a numeric application identifier. */
const SHORT_NAMES: Record<string, string> = { ...PRIMARY_KEY_NAMES, lot: '10', ser: '21', glnx: '254', cpv: '22' };

/**
 * A Digital Link on any host as one on id.gs1.org, with numeric application identifiers and no query
 * string; undefined for a URL whose path does not start with a GS1 primary key (not a Digital Link).
 */
function digitalLinkOnGs1(value: string): string | undefined {
  const match = /^https?:\/\/[^/?#]+(\/[^?#]*)(?:[?#].*)?$/.exec(value);
  if (!match) return undefined;
  const segments = match[1]
    .split('/')
    .filter(Boolean)
    .map((segment, i) => (i % 2 === 0 ? (SHORT_NAMES[segment] ?? segment) : segment));
  if (!segments.length || !PRIMARY_KEYS.has(segments[0]) || segments.length % 2 !== 0) return undefined;
  return `https://id.gs1.org/${segments.join('/')}`;
}

/** The primary keys whose Digital Links identifiers.ts reads: GTIN (with lot or serial), GLN, SSCC. */
const KEYED_LINK = /^https:\/\/id\.gs1\.org\/(01|414|00)\//;

/**
 * EPC URN schemes beyond those identifiers.ts translates, as the path of their Digital Link: `cp.ref`
 * (`body`) with a check digit where the key has one, then the serial where the scheme has one.
 */
const OTHER_EPC_PATHS: Record<string, (body: string, serial: string) => string> = {
  pgln: (body) => `417/${body}${checkDigit(body)}`,
  // A GRAI's 14 digits begin with a 0 before the company prefix.
  grai: (body, serial) => `8003/0${body}${checkDigit(body)}${serial}`,
  giai: (body) => `8004/${body}`,
  gdti: (body, serial) => `253/${body}${checkDigit(body)}${serial}`,
  gsrn: (body) => `8018/${body}${checkDigit(body)}`,
  gsrnp: (body) => `8017/${body}${checkDigit(body)}`,
  sgcn: (body, serial) => `255/${body}${checkDigit(body)}${serial}`,
};

function otherEpcUrn(value: string): string | undefined {
  const match = /^urn:epc:id:([a-z]+):([0-9]+)\.([^.]*)(?:\.(.+))?$/.exec(value);
  if (!match || !Object.hasOwn(OTHER_EPC_PATHS, match[1])) return undefined;
  const [, scheme, companyPrefix, reference, serial] = match;
  return `https://id.gs1.org/${OTHER_EPC_PATHS[scheme](companyPrefix + reference, serial ?? '')}`;
}

/** An identifier (EPC, class, location, party) as the pre-hash spells it: a document names its locations and classes in many events. */
const identifier = memoised((value: string): string => {
  if (value.startsWith('urn:epc:')) {
    const other = otherEpcUrn(value);
    if (other) return other;
    // An EPC URN's Digital Link is its canonical identifier, which the capture's query index reads too.
    return canonicalIdentifier(value);
  }
  const link = digitalLinkOnGs1(value);
  if (!link) return value;
  // A GTIN, GLN or SSCC in its constrained form (GTIN-14, serial over lot, one percent-encoding).
  return KEYED_LINK.test(link) ? canonicalIdentifier(link) : link;
});

/** Numbers as OpenEPCIS prints them: integral values below 10^7 (Java prints larger ones in E notation) without a fraction. */
function numberOf(value: unknown): string {
  const text = String(value);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  const n = Number(text);
  return Number.isInteger(n) && Math.abs(n) < 1e7 ? String(n) : text;
}

/** A date-time in UTC with milliseconds (`2005-04-05T02:33:31.116Z`), rounded to them as GS1's reference implementation rounds. */
function utc(value: string): string {
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) return value;
  // Date drops what is below the millisecond.
  const fraction = /T\d\d:\d\d:\d\d\.(\d{4,})/.exec(value)?.[1];
  if (fraction && Number(fraction[3]) >= 5) time.setTime(time.getTime() + 1);
  return time.toISOString();
}

/** A value of a standard field, canonical. */
function valueOf(name: string, value: unknown): string {
  if (typeof value !== 'string') return numberOf(value);
  if (TIMES.has(name)) return utc(value);
  if (value.startsWith('urn:epc:') || /^https?:\/\//.test(value)) return identifier(value);
  if (value.startsWith('gs1:')) return value.slice(4);
  return numberOf(value);
}

const cbv = (vocabulary: CbvVocabulary, value: unknown): string =>
  cbvSpelling(vocabulary, String(value), 'Always_Web_URI');

/** A user extension's name as `{namespace IRI}local`; a name without a known prefix as it is. */
function extensionName(name: string, namespaces: Namespaces): string {
  const at = name.indexOf(':');
  const iri = at > 0 ? namespaces[name.slice(0, at)] : undefined;
  return iri ? `{${iri}}${name.slice(at + 1)}` : name;
}

/**
 * A user extension (any depth) as pre-hash blocks, one per element: a repeated element (a JSON array) is
 * one block per value, to be sorted among its siblings. An element with a value and attributes (XML
 * `<cbvmda:netWeight measurementUnitCode="KGM">3.5</…>`, JSON-LD `{"@value": "3.5", "measurementUnitCode": "KGM"}`)
 * is its value's line, then its attributes as its children; an empty one is its name alone.
 */
function extensionBlocks(name: string, value: unknown, namespaces: Namespaces): string[][] {
  if (Array.isArray(value)) return value.flatMap((item) => extensionBlocks(name, item, namespaces));
  const object = value && typeof value === 'object' ? (value as Json) : undefined;
  const own = object ? (object['@value'] ?? object['@id']) : value;
  const text = typeof own === 'string' ? own.trim() : own;
  const key = extensionName(name, namespaces);
  const head = text === undefined || text === null || text === '' ? key : `${key}=${valueOf(name, text)}`;
  return [[head, ...(object ? childBlocks(object, namespaces) : [])]];
}

const NO_FIELDS: ReadonlySet<string> = new Set();

/** The user extensions of an object (its JSON-LD keywords and the standard's own fields left out), as sorted lines. */
function childBlocks(object: Json, namespaces: Namespaces, standard: ReadonlySet<string> = NO_FIELDS): string[] {
  const keys = Object.keys(object).filter((k) => !k.startsWith('@') && !standard.has(k));
  // Most objects (a readPoint, an event of standard fields alone) have none.
  if (!keys.length) return [];
  return sortedBlocks(
    keys.flatMap((k) => extensionBlocks(k, object[k], namespaces)),
    byExtension,
  ).flat();
}

/** Blocks of lines sorted by their values (header lines such as `quantityElement` do not count), as OpenEPCIS orders list elements; ties by their whole text. */
const sortedBlocks = (blocks: string[][], key: (block: string[]) => string = byValues): string[][] =>
  // One block (most lists of an event hold one element) is in order as it is.
  blocks.length < 2
    ? blocks
    : blocks
        .map((block) => ({ block, key: key(block), text: block.join('') }))
        .sort((a, b) => compare(a.key, b.key) || compare(a.text, b.text))
        .map(({ block }) => block);

/** A block's value lines, its header lines (`quantityElement`) left out. */
function byValues(block: string[]): string {
  return block.filter((line) => line.includes('=')).join('');
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** User extensions sort by namespace IRI, local name and value. */
const byExtension = (block: string[]): string =>
  block[0].replace(/^\{([^}]*)\}/, '$1') + (block[0].includes('=') ? '' : '=null');

/** The standard fields of a sensor element, then (collected apart) its user extensions. */
function sensorElementLines(element: Json, namespaces: Namespaces): { standard: string[]; extensions: string[] } {
  const metadata = (element.sensorMetadata ?? {}) as Json;
  const reports = Array.isArray(element.sensorReport) ? (element.sensorReport as Json[]) : [];
  const standard = ['sensorElement'];
  const metadataLines = SENSOR_METADATA.filter((name) => metadata[name] !== undefined).map(
    (name) => `${name}=${valueOf(name, metadata[name])}`,
  );
  if (metadataLines.length) standard.push('sensorMetadata', ...metadataLines);
  const reportBlocks = reports.map((report) => {
    const lines = ['sensorReport'];
    for (const name of SENSOR_REPORT) {
      const value = report[name];
      if (value === undefined) continue;
      const text = scalarText(value);
      if (name === 'type' || name === 'exception')
        lines.push(
          `${name}=${text.startsWith('gs1:') ? `https://gs1.org/voc/${text.slice(4)}` : text.includes(':') ? text : `https://gs1.org/voc/${text}`}`,
        );
      else if (name === 'component')
        lines.push(`${name}=${text.includes(':') ? text : `https://ref.gs1.org/cbv/Comp-${text}`}`);
      else if (name === 'stringValue' || name === 'hexBinaryValue') lines.push(`${name}=${text}`);
      else lines.push(`${name}=${valueOf(name, value)}`);
    }
    return lines;
  });
  standard.push(...sortedBlocks(reportBlocks).flat());

  const own = (object: Json, standard: ReadonlySet<string>) => childBlocks(object, namespaces, standard);
  const metadataExtensions = own(metadata, SENSOR_METADATA_FIELDS);
  const reportExtensions = reports.flatMap((report) => {
    const lines = own(report, SENSOR_REPORT_FIELDS);
    return lines.length ? ['sensorReport', ...lines] : [];
  });
  const extensions = [
    ...(metadataExtensions.length ? ['sensorMetadata', ...metadataExtensions] : []),
    ...reportExtensions,
    ...own(element, SENSOR_ELEMENT_FIELDS),
  ];
  return { standard, extensions: extensions.length ? ['sensorElement', ...extensions] : [] };
}

/** The pre-hash string's lines of an EPCIS 2.0 event (JSON/JSON-LD model): the hash is over their concatenation. */
export function preHashLines(event: Json, namespaces: Namespaces = {}): string[] {
  const lines = [
    `eventType=${String(event.type)}`,
    `eventTime=${utc(String(event.eventTime))}`,
    `eventTimeZoneOffset=${String(event.eventTimeZoneOffset)}`,
  ];
  // CBV 2.0 leaves certificationInfo out; OpenEPCIS's published generator (the oracle partners use) keeps it.
  for (const certificate of ([] as unknown[]).concat(event.certificationInfo ?? []))
    lines.push(`certificationInfo=${valueOf('certificationInfo', certificate)}`);
  // Extensions inside a standard field follow the standard fields, under their parent's name (CBV 2.0's
  // rule for readPoint, bizLocation and the sensor fields, placed as GS1's reference implementation places them).
  const locationExtensions: string[] = [];
  const sensorExtensions: string[] = [];
  for (const field of FIELD_ORDER) {
    const value = event[field];
    if (value === undefined || value === null) continue;
    switch (field) {
      case 'epcList':
      case 'inputEPCList':
      case 'childEPCs':
      case 'outputEPCList': {
        const list = (value as string[]).slice().sort();
        if (list.length) lines.push(field, ...list.map((epc) => `epc=${identifier(epc)}`));
        break;
      }
      case 'parentID':
        lines.push(`parentID=${identifier(scalarText(value))}`);
        break;
      case 'quantityList':
      case 'childQuantityList':
      case 'inputQuantityList':
      case 'outputQuantityList': {
        const blocks = (value as Json[]).map((q) => [
          'quantityElement',
          `epcClass=${identifier(scalarText(q.epcClass))}`,
          ...(q.quantity !== undefined ? [`quantity=${numberOf(q.quantity)}`] : []),
          ...(q.uom !== undefined ? [`uom=${scalarText(q.uom)}`] : []),
        ]);
        if (blocks.length) lines.push(field, ...sortedBlocks(blocks).flat());
        break;
      }
      case 'action':
        lines.push(`action=${scalarText(value)}`);
        break;
      case 'transformationID':
        lines.push(`transformationID=${valueOf(field, value)}`);
        break;
      case 'bizStep':
      case 'disposition':
        lines.push(`${field}=${cbv(field, value)}`);
        break;
      case 'persistentDisposition': {
        const terms = (['set', 'unset'] as const).flatMap((kind) =>
          ((value as Partial<Record<typeof kind, string[]>>)[kind] ?? [])
            .slice()
            .sort()
            .map((t) => `${kind}=${cbv('disposition', t)}`),
        );
        if (terms.length) lines.push('persistentDisposition', ...terms);
        break;
      }
      case 'readPoint':
      case 'bizLocation': {
        lines.push(field, `id=${identifier(String((value as Json).id))}`);
        const extensions = childBlocks(value as Json, namespaces, LOCATION_FIELDS);
        if (extensions.length) locationExtensions.push(field, ...extensions);
        break;
      }
      case 'bizTransactionList': {
        const blocks = (value as Json[]).map((t) => [
          ...(t.type !== undefined ? [`type=${cbv('bizTransactionType', t.type)}`] : []),
          `bizTransaction=${valueOf('bizTransaction', t.bizTransaction)}`,
        ]);
        if (blocks.length) lines.push(field, ...sortedBlocks(blocks).flat());
        break;
      }
      case 'sourceList':
      case 'destinationList': {
        const key = field === 'sourceList' ? 'source' : 'destination';
        const blocks = (value as Json[]).map((s) => [
          `type=${cbv('sourceDestType', s.type)}`,
          `${key}=${valueOf(key, s[key])}`,
        ]);
        if (blocks.length) lines.push(field, ...sortedBlocks(blocks).flat());
        break;
      }
      case 'sensorElementList': {
        const elements = (value as Json[]).map((element) => sensorElementLines(element, namespaces));
        lines.push(...sortedBlocks(elements.map((e) => e.standard)).flat());
        sensorExtensions.push(...sortedBlocks(elements.map((e) => e.extensions)).flat());
        break;
      }
      case 'ilmd': {
        const ilmd = childBlocks(value as Json, namespaces);
        if (ilmd.length) lines.push('ilmd', ...ilmd);
        break;
      }
    }
  }
  const extensions = childBlocks(event, namespaces, STANDARD_FIELDS);
  return [...lines, ...locationExtensions, ...sensorExtensions, ...extensions];
}

/** The CBV 2.0 event hash id of an EPCIS 2.0 event. */
export function eventHashId(event: Json, namespaces: Namespaces = {}): string {
  const digest = createHash('sha256').update(preHashLines(event, namespaces).join(''), 'utf8').digest('hex');
  return `ni:///sha-256;${digest}?ver=CBV2.0`;
}

const CBV_MDA = 'urn:epcglobal:cbv:mda';
/** Prefixes GS1's own context defines, which documents use without declaring them. */
export const GS1_NAMESPACES: Namespaces = { cbvmda: CBV_MDA };
/** A namespace in each spelling a document may declare it with: CBV master data's with GS1 context's `#` and without. */
export const namespaceSpellings = (iri: string): string[] =>
  iri === CBV_MDA || iri === `${CBV_MDA}#` ? [CBV_MDA, `${CBV_MDA}#`] : [iri];

/**
 * The namespace prefixes a JSON-LD @context defines (its entries whose value is an IRI; a term typed
 * beside them, `{ "rail:count": { "@type": … } }`, defines no prefix), for user extensions' names.
 * GS1's context spells CBV master data's namespace with a `#` that its XML namespace has not.
 */
export function namespacesOfContext(context: unknown): Namespaces {
  const out: Record<string, string> = { ...GS1_NAMESPACES };
  for (const entry of Array.isArray(context) ? context : [context]) {
    if (!entry || typeof entry !== 'object') continue;
    for (const [prefix, iri] of Object.entries(entry as Json))
      if (typeof iri === 'string') out[prefix] = iri === `${CBV_MDA}#` ? CBV_MDA : iri;
  }
  return out;
}

/** A JSON scalar as the pre-hash spells it; anything else as its JSON. */
function scalarText(value: unknown): string {
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : JSON.stringify(value);
}
