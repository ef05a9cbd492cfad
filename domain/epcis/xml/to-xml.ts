/**
 * JSON-LD EPCIS events as an EPCIS XML EPCISQueryDocument, 2.0 or (for partners' 1.2 tooling) 1.2: the
 * reverse of from-xml.ts, by the same GS1 mapping. Elements come in the order GS1's XSDs require; 1.2
 * puts what 1.0 did not have in its `extension`/`baseExtension` wrappers as GS1's downgrading XSL does
 * (TransformationEvent in EventList/extension, AssociationEvent, sensors and persistent dispositions
 * one `extension` deeper). `prefix:name` keys become elements of the namespace the @context gives the
 * prefix. Pure.
 */
import { cbvXml, sensorTypeXml, type CbvVocabulary, type CbvXmlFormat } from './cbv';
import {
  EPCIS_QUERY_XML_NAMESPACES,
  EPCIS_XML_NAMESPACES,
  ID_LISTS,
  QUANTITY_LISTS,
  TEXT_FIELDS,
  type EpcisXmlVersion,
  type Json,
} from './from-xml';

type JsonObject = { [key: string]: Json | undefined };

interface XmlNode {
  name: string;
  attributes?: [string, string][];
  children?: XmlNode[];
  text?: string;
}

/** What XML 1.0 cannot hold, even as a character reference: most control characters, U+FFFE/F, lone surrogates. */
const NOT_XML =
  // oxlint-disable-next-line no-control-regex -- matching the control characters XML cannot hold is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** An XML name without a prefix: what an attribute of an extension element may be called. */
const NCNAME = /^[A-Za-z_][\w.-]*$/;

const escapeText = (value: string): string =>
  value.replace(NOT_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (value: string): string => escapeText(value).replace(/"/g, '&quot;');

function write(node: XmlNode, out: string[]): void {
  out.push(`<${node.name}`);
  for (const [name, value] of node.attributes ?? []) out.push(` ${name}="${escapeAttribute(value)}"`);
  if (!node.children?.length && node.text === undefined) {
    out.push('/>');
    return;
  }
  out.push('>');
  if (node.text !== undefined) out.push(escapeText(node.text));
  for (const child of node.children ?? []) write(child, out);
  out.push(`</${node.name}>`);
}

/** Prefixes every binding knows without a @context entry. */
const WELL_KNOWN: Record<string, string> = {
  gs1: 'https://gs1.org/voc/',
  cbvmda: 'urn:epcglobal:cbv:mda',
  cbv: 'https://ref.gs1.org/cbv/',
};
const RESERVED = new Set(['epcis', 'epcisq', 'xsi', 'xml', 'xmlns']);

/** The prefixes the answer declares on its root, from the events' @context entries. */
class Namespaces {
  private readonly known = new Map<string, string>(Object.entries(WELL_KNOWN));
  readonly used = new Map<string, string>();

  constructor(context: unknown[]) {
    for (const entry of context) {
      if (!entry || typeof entry !== 'object') continue;
      for (const [prefix, iri] of Object.entries(entry))
        if (typeof iri === 'string' && !RESERVED.has(prefix) && /^[A-Za-z_][\w.-]*$/.test(prefix))
          this.known.set(prefix, iri);
    }
  }

  private generated = 0;

  /**
   * The element name of a JSON-LD key. A prefix the @context defines is kept; a key that is a whole IRI
   * (https://ns.example.com/epcis#field) is split at its last # or / into a namespace of a prefix of its
   * own; a prefix defined nowhere is, as JSON-LD reads it, an IRI scheme: `foo:bar` is `bar` in `foo:`.
   * Undefined for a key without a colon (no JSON-LD extension).
   */
  nameOf(key: string): string | undefined {
    const colon = key.indexOf(':');
    if (colon <= 0) return undefined;
    const full = /^(.*[#/])([A-Za-z_][\w.-]*)$/.exec(key);
    if (full && key.slice(colon + 1).startsWith('//')) {
      const [, namespace, local] = full;
      let prefix = [...this.known].find(([, iri]) => iri === namespace)?.[0];
      if (!prefix) {
        do prefix = `ns${++this.generated}`;
        while (this.known.has(prefix));
        this.known.set(prefix, namespace);
      }
      this.used.set(prefix, namespace);
      return `${prefix}:${local}`;
    }
    const prefix = key.slice(0, colon);
    const local = key.slice(colon + 1);
    if (!/^[A-Za-z_][\w.-]*$/.test(prefix) || RESERVED.has(prefix) || !/^[A-Za-z_][\w.-]*$/.test(local))
      return undefined;
    if (!this.known.has(prefix)) this.known.set(prefix, `${prefix}:`);
    this.used.set(prefix, this.known.get(prefix)!);
    return key;
  }
}

type Field = (value: Json, name: string) => XmlNode[];

export interface XmlAnswerOptions {
  version: EpcisXmlVersion;
  cbvFormat: CbvXmlFormat;
  creationDate: string;
}

const str = (value: Json | undefined): string =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
const list = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
const isObject = (value: Json | undefined): value is { [key: string]: Json } =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** An element of one child per object of the JSON list (`value`: a list, one object, or nothing). */
const objectList = (
  name: string,
  value: Json | undefined,
  child: (entry: { [key: string]: Json }) => XmlNode,
): XmlNode[] => [{ name, children: list(value).filter(isObject).map(child) }];
/** An element of one `item` element per value of the JSON list. */
const textList = (name: string, item: string, value: Json | undefined): XmlNode[] => [
  { name, children: list(value).map((entry) => ({ name: item, text: str(entry) })) },
];
/** An element of what `children` makes of a JSON object; nothing for anything else. */
const objectNode = (
  name: string,
  value: Json | undefined,
  children: (object: { [key: string]: Json }) => XmlNode[],
): XmlNode[] => (isObject(value) ? [{ name, children: children(value) }] : []);

class Writer {
  constructor(
    private readonly namespaces: Namespaces,
    private readonly options: XmlAnswerOptions,
  ) {}

  /** A company's extension value under its element name: text, repeated elements for an array, children for an object. */
  extension(name: string, value: Json): XmlNode[] {
    if (Array.isArray(value)) return value.flatMap((item) => this.extension(name, item));
    if (!isObject(value)) return [{ name, text: str(value) }];
    const node: XmlNode = { name, attributes: [], children: [] };
    for (const [key, child] of Object.entries(value)) {
      if (key === '@value') node.text = str(child);
      // Other JSON-LD keywords (a node's @id, a value's @type) and keys no XML name can spell have no XML form.
      else if (key.startsWith('@')) continue;
      else if (!key.includes(':')) {
        if (NCNAME.test(key) && !isObject(child) && !Array.isArray(child)) node.attributes!.push([key, str(child)]);
      } else node.children!.push(...this.extensionsOf({ [key]: child }, new Set()));
    }
    return [node];
  }

  /** The keys of an object the standard does not name (`known`), as extension elements. */
  extensionsOf(object: JsonObject, known: ReadonlySet<string>): XmlNode[] {
    const out: XmlNode[] = [];
    for (const [key, value] of Object.entries(object)) {
      if (known.has(key) || value === undefined) continue;
      const name = this.namespaces.nameOf(key);
      if (name) out.push(...this.extension(name, value));
    }
    return out;
  }

  private cbv = (vocabulary: CbvVocabulary, value: Json | undefined): string =>
    cbvXml(vocabulary, str(value), this.options.cbvFormat);

  text: Field = (value, name) => [{ name, text: str(value) }];
  ids: Field = (value, name) => textList(name, 'epc', value);
  quantities: Field = (value, name) =>
    objectList(name, value, (q) => ({
      name: 'quantityElement',
      children: [
        { name: 'epcClass', text: str(q.epcClass) },
        ...(q.quantity !== undefined ? [{ name: 'quantity', text: str(q.quantity) }] : []),
        ...(q.uom !== undefined && q.quantity !== undefined ? [{ name: 'uom', text: str(q.uom) }] : []),
      ],
    }));
  location: Field = (value, name) =>
    objectNode(name, value, (v) => [{ name: 'id', text: str(v.id) }, ...this.extensionsOf(v, new Set(['id']))]);
  typedList =
    (vocabulary: CbvVocabulary, item: string, valueKey: string): Field =>
    (value, name) =>
      objectList(name, value, (entry) => ({
        name: item,
        attributes:
          entry.type !== undefined ? ([['type', this.cbv(vocabulary, entry.type)]] as [string, string][]) : [],
        text: str(entry[valueKey]),
      }));
  bizStep: Field = (value, name) => [{ name, text: this.cbv('bizstep', value) }];
  disposition: Field = (value, name) => [{ name, text: this.cbv('disp', value) }];
  persistentDisposition: Field = (value, name) =>
    objectNode(name, value, (v) => [
      ...list(v.unset).map((d) => ({ name: 'unset', text: this.cbv('disp', d) })),
      ...list(v.set).map((d) => ({ name: 'set', text: this.cbv('disp', d) })),
    ]);
  ilmd: Field = (value, name) => objectNode(name, value, (v) => this.extensionsOf(v, new Set()));

  private sensorAttributes(value: Json | undefined): [string, string][] {
    if (!isObject(value)) return [];
    const out: [string, string][] = [];
    for (const [key, item] of Object.entries(value)) {
      if (key.includes(':')) {
        const name = this.namespaces.nameOf(key);
        if (name) out.push([name, str(item)]);
      } else out.push([key, key === 'type' ? sensorTypeXml(str(item)) : str(item)]);
    }
    return out;
  }
  sensors: Field = (value, name) =>
    objectList(name, value, (sensor) => ({
      name: 'sensorElement',
      children: [
        ...(sensor.sensorMetadata !== undefined
          ? [{ name: 'sensorMetadata', attributes: this.sensorAttributes(sensor.sensorMetadata) }]
          : []),
        ...list(sensor.sensorReport).map((report) => ({
          name: 'sensorReport',
          attributes: this.sensorAttributes(report),
        })),
        ...this.extensionsOf(sensor, new Set(['sensorMetadata', 'sensorReport'])),
      ],
    }));
  errorDeclaration: Field = (value, name) =>
    objectNode(name, value, (v) => [
      { name: 'declarationTime', text: str(v.declarationTime) },
      ...(v.reason !== undefined ? [{ name: 'reason', text: this.cbv('er', v.reason) }] : []),
      ...(v.correctiveEventIDs !== undefined
        ? textList('correctiveEventIDs', 'correctiveEventID', v.correctiveEventIDs)
        : []),
      ...this.extensionsOf(v, new Set(['declarationTime', 'reason', 'correctiveEventIDs'])),
    ]);

  readonly fields: Record<string, Field> = {
    ...Object.fromEntries([...TEXT_FIELDS].map((name) => [name, this.text])),
    ...Object.fromEntries([...ID_LISTS].map((name) => [name, this.ids])),
    ...Object.fromEntries([...QUANTITY_LISTS].map((name) => [name, this.quantities])),
    errorDeclaration: this.errorDeclaration,
    bizStep: this.bizStep,
    disposition: this.disposition,
    readPoint: this.location,
    bizLocation: this.location,
    bizTransactionList: this.typedList('btt', 'bizTransaction', 'bizTransaction'),
    sourceList: this.typedList('sdt', 'source', 'source'),
    destinationList: this.typedList('sdt', 'destination', 'destination'),
    sensorElementList: this.sensors,
    persistentDisposition: this.persistentDisposition,
    ilmd: this.ilmd,
  };

  /** The fields of `names` the event has, in that order; a name in `required` is written (empty) even when absent. */
  ordered(event: JsonObject, names: readonly string[], required: ReadonlySet<string> = new Set()): XmlNode[] {
    return names.flatMap((name) => {
      const value = event[name];
      if (value === undefined) return required.has(name) ? [{ name }] : [];
      return this.fields[name](value, name);
    });
  }
}

const BASE = ['eventTime', 'recordTime', 'eventTimeZoneOffset', 'eventID', 'errorDeclaration', 'certificationInfo'];
const SCOPE = ['bizStep', 'disposition', 'readPoint', 'bizLocation'];
const TAIL = ['sourceList', 'destinationList', 'sensorElementList', 'persistentDisposition'];
/** A transformation's own fields, in both versions' order. */
const TRANSFORMATION = [
  'inputEPCList',
  'inputQuantityList',
  'outputEPCList',
  'outputQuantityList',
  'transformationID',
  ...SCOPE,
  'bizTransactionList',
];

/** EPCIS 2.0's element order of each event type (GS1's EPCglobal-epcis-2_0.xsd). */
const ORDER_2_0: Record<string, string[]> = {
  ObjectEvent: [...BASE, 'epcList', 'action', ...SCOPE, 'bizTransactionList', 'quantityList', ...TAIL, 'ilmd'],
  AggregationEvent: [
    ...BASE,
    'parentID',
    'childEPCs',
    'action',
    ...SCOPE,
    'bizTransactionList',
    'childQuantityList',
    ...TAIL,
  ],
  TransactionEvent: [...BASE, 'bizTransactionList', 'parentID', 'epcList', 'action', ...SCOPE, 'quantityList', ...TAIL],
  TransformationEvent: [...BASE, ...TRANSFORMATION, ...TAIL, 'ilmd'],
  AssociationEvent: [
    ...BASE,
    'parentID',
    'childEPCs',
    'childQuantityList',
    'action',
    ...SCOPE,
    'bizTransactionList',
    ...TAIL,
  ],
};

/** EPCIS 1.2's: its own fields first, what came later in `extension`, and what 2.0 added one `extension` deeper. */
const ORDER_1_2: Record<string, { own: string[]; extension: string[]; required?: string[] }> = {
  ObjectEvent: {
    own: ['epcList', 'action', ...SCOPE, 'bizTransactionList'],
    extension: ['quantityList', 'sourceList', 'destinationList', 'ilmd'],
    required: ['epcList'],
  },
  AggregationEvent: {
    own: ['parentID', 'childEPCs', 'action', ...SCOPE, 'bizTransactionList'],
    extension: ['childQuantityList', 'sourceList', 'destinationList'],
    required: ['childEPCs'],
  },
  TransactionEvent: {
    own: ['bizTransactionList', 'parentID', 'epcList', 'action', ...SCOPE],
    extension: ['quantityList', 'sourceList', 'destinationList'],
    required: ['epcList', 'bizTransactionList'],
  },
  TransformationEvent: {
    own: [...TRANSFORMATION, 'sourceList', 'destinationList', 'ilmd'],
    extension: [],
  },
};
const LATER_1_2 = ['sensorElementList', 'persistentDisposition'];

/** Every field the standard names (anything else an event holds is an extension, written by its prefix). */
const STANDARD = new Set(['type', ...Object.values(ORDER_2_0).flat()]);

function event2(writer: Writer, event: JsonObject): XmlNode {
  const type = str(event.type);
  return {
    name: type,
    children: [...writer.ordered(event, ORDER_2_0[type] ?? BASE), ...writer.extensionsOf(event, STANDARD)],
  };
}

/** A 1.2 event and where it sits in the EventList (TransformationEvent and AssociationEvent are in its wrappers). */
function event12(writer: Writer, event: JsonObject): XmlNode {
  const type = str(event.type);
  const base = writer.ordered(event, ['eventTime', 'recordTime', 'eventTimeZoneOffset']);
  const baseExtension = writer.ordered(event, ['eventID', 'errorDeclaration']);
  const certification = writer.ordered(event, ['certificationInfo']);
  if (certification.length) baseExtension.push({ name: 'extension', children: certification });
  if (baseExtension.length) base.push({ name: 'baseExtension', children: baseExtension });
  const extensions = writer.extensionsOf(event, STANDARD);
  const order = ORDER_1_2[type];
  if (!order) {
    // AssociationEvent: EPCIS 1.2 has none; GS1's downgrade carries it in EventList/extension/extension.
    const node: XmlNode = {
      name: type,
      children: [
        ...base,
        ...writer.ordered(
          event,
          ORDER_2_0[type].filter((f) => !BASE.includes(f)),
        ),
        ...extensions,
      ],
    };
    return { name: 'extension', children: [{ name: 'extension', children: [node] }] };
  }
  const own = writer.ordered(event, order.own, new Set(order.required));
  const later = writer.ordered(event, LATER_1_2);
  const extension = [
    ...writer.ordered(event, order.extension),
    ...(later.length ? [{ name: 'extension', children: later }] : []),
  ];
  const node: XmlNode = {
    name: type,
    children: [
      ...base,
      ...own,
      ...(extension.length ? [{ name: 'extension', children: extension }] : []),
      ...extensions,
    ],
  };
  return type === 'TransformationEvent' ? { name: 'extension', children: [node] } : node;
}

/** An EPCIS XML document around its events: an EPCISQueryDocument's results or an EPCISDocument's body. */
function documentXml(
  kind: 'query' | 'document',
  events: JsonObject[],
  context: unknown[],
  options: XmlAnswerOptions,
): string {
  const namespaces = new Namespaces(context);
  const writer = new Writer(namespaces, options);
  const eventList: XmlNode = {
    name: 'EventList',
    children: events.map((event) => (options.version === '2.0' ? event2(writer, event) : event12(writer, event))),
  };
  const body: XmlNode =
    kind === 'query'
      ? {
          name: 'EPCISBody',
          children: [
            {
              name: 'epcisq:QueryResults',
              children: [
                { name: 'queryName', text: 'SimpleEventQuery' },
                { name: 'resultsBody', children: [eventList] },
              ],
            },
          ],
        }
      : { name: 'EPCISBody', children: [eventList] };
  const root: XmlNode = {
    name: kind === 'query' ? 'epcisq:EPCISQueryDocument' : 'epcis:EPCISDocument',
    attributes: [
      ...(kind === 'query' ? [['xmlns:epcisq', EPCIS_QUERY_XML_NAMESPACES[options.version]] as [string, string]] : []),
      ['xmlns:epcis', EPCIS_XML_NAMESPACES[options.version]],
      ...[...namespaces.used].map(([prefix, iri]) => [`xmlns:${prefix}`, iri] as [string, string]),
      ['schemaVersion', options.version],
      ['creationDate', options.creationDate],
    ],
    children: [body],
  };
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(root, out);
  return out.join('');
}

/** The events as an EPCISQueryDocument of SimpleEventQuery in EPCIS XML. */
export const queryDocumentXml = (events: JsonObject[], context: unknown[], options: XmlAnswerOptions): string =>
  documentXml('query', events, context, options);
/** The events as an EPCISDocument in EPCIS XML (what a partner's system captures). */
export const epcisDocumentXml = (events: JsonObject[], context: unknown[], options: XmlAnswerOptions): string =>
  documentXml('document', events, context, options);
