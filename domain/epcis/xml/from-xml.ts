/**
 * EPCIS XML (2.0, `urn:epcglobal:epcis:xsd:2`, and 1.2, `urn:epcglobal:epcis:xsd:1`) as the JSON-LD
 * document the service captures, by GS1's mapping between the two bindings: CBV URNs and Web URIs
 * become bare words, lists become arrays, 1.2's `extension`/`baseExtension` wrappers are read through,
 * and every element of another namespace (a company's extension) becomes a `prefix:name` key whose
 * prefix the document's @context defines. Works on a parsed, XSD-valid DOM; pure.
 */
import { ELEMENT_NODE, type XmlElement, type XmlNode } from './tree';
import { cbvWord, sensorTypeWord, type CbvVocabulary } from './cbv';

export type EpcisXmlVersion = '1.2' | '2.0';
export const EPCIS_XML_NAMESPACES: Record<EpcisXmlVersion, string> = {
  '2.0': 'urn:epcglobal:epcis:xsd:2',
  '1.2': 'urn:epcglobal:epcis:xsd:1',
};
export const EPCIS_QUERY_XML_NAMESPACES: Record<EpcisXmlVersion, string> = {
  '2.0': 'urn:epcglobal:epcis-query:xsd:2',
  '1.2': 'urn:epcglobal:epcis-query:xsd:1',
};
export const GS1_EPCIS_CONTEXT = 'https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const XMLNS = 'http://www.w3.org/2000/xmlns/';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Something in the XML the JSON-LD model cannot hold, named by its XPath-like location. */
export interface XmlIssue {
  pointer: string;
  message: string;
}

/** A field the mapping left out of an event, and why. */
export interface XmlLeftOut extends XmlIssue {
  /** The event's index in the event list. */
  index: number;
}

export interface XmlDocument {
  version: EpcisXmlVersion;
  /** The JSON-LD EPCISDocument the XML says. */
  document: JsonObject & { epcisBody: { eventList: JsonObject[] } };
  /** The XPath-like location of each event of the event list. */
  eventPaths: string[];
  issues: XmlIssue[];
  /** 1.2's fields of no namespace in its `extension/extension` slots: valid there, but nothing JSON-LD can name. */
  leftOut: XmlLeftOut[];
}

const elementsOf = (node: XmlNode): XmlElement[] => {
  const out: XmlElement[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling)
    if (child.nodeType === ELEMENT_NODE) out.push(child as XmlElement);
  return out;
};
const isEpcis = (element: XmlElement): boolean => !element.namespaceURI;
const textOf = (element: XmlElement): string => (element.textContent ?? '').trim();
const childNamed = (element: XmlElement, name: string): XmlElement | undefined =>
  elementsOf(element).find((child) => isEpcis(child) && child.localName === name);

/** An XPath-like location: `/epcis:EPCISDocument/EPCISBody/EventList/ObjectEvent[2]/action`. */
export function xpathOf(element: XmlElement): string {
  const steps: string[] = [];
  for (let node: XmlNode | null = element; node && node.nodeType === ELEMENT_NODE; node = node.parentNode) {
    const current = node as XmlElement;
    const siblings = current.parentNode
      ? elementsOf(current.parentNode).filter((s) => s.nodeName === current.nodeName)
      : [current];
    steps.unshift(siblings.length > 1 ? `${current.nodeName}[${siblings.indexOf(current) + 1}]` : current.nodeName);
  }
  return `/${steps.join('/')}`;
}

/** xpathOf of many elements: each parent's location and children read once, not once per element (500 events of one EventList). */
function xpathsOf(elements: readonly XmlElement[]): string[] {
  const byParent = new Map<XmlNode, Map<XmlNode, string>>();
  return elements.map((element) => {
    const parent = element.parentNode;
    if (!parent || parent.nodeType !== ELEMENT_NODE) return xpathOf(element);
    let paths = byParent.get(parent);
    if (!paths) {
      const base = xpathOf(parent as XmlElement);
      const children = elementsOf(parent);
      const total = new Map<string, number>();
      for (const child of children) total.set(child.nodeName, (total.get(child.nodeName) ?? 0) + 1);
      const seen = new Map<string, number>();
      paths = new Map();
      for (const child of children) {
        const n = (seen.get(child.nodeName) ?? 0) + 1;
        seen.set(child.nodeName, n);
        paths.set(
          child,
          total.get(child.nodeName)! > 1 ? `${base}/${child.nodeName}[${n}]` : `${base}/${child.nodeName}`,
        );
      }
      byParent.set(parent, paths);
    }
    return paths.get(element)!;
  });
}

/** The prefixes of the JSON-LD @context, one per namespace the extensions use. */
class Prefixes {
  private readonly taken = new Set(['gs1', 'epcis', 'cbv', 'xsd', 'xsi']);
  // The GS1 context already defines cbvmda; an extension in it keeps its usual prefix.
  private readonly byNamespace = new Map([['urn:epcglobal:cbv:mda', 'cbvmda']]);

  of(namespace: string, preferred: string | null): string {
    const known = this.byNamespace.get(namespace);
    if (known) return known;
    let prefix = preferred && /^[A-Za-z_][\w.-]*$/.test(preferred) ? preferred : 'ext';
    for (let n = 2; this.taken.has(prefix); n++) prefix = `${preferred ?? 'ext'}${n}`;
    this.taken.add(prefix);
    this.byNamespace.set(namespace, prefix);
    return prefix;
  }

  context(): JsonObject[] {
    return [...this.byNamespace]
      .filter(([namespace]) => namespace !== 'urn:epcglobal:cbv:mda')
      .map(([namespace, prefix]) => ({ [prefix]: namespace }));
  }
}

const SENSOR_NUMBERS = new Set(['value', 'minValue', 'maxValue', 'meanValue', 'sDev', 'percRank', 'percValue']);
/** The event fields of each kind, by element name (to-xml.ts writes them back by the same lists). */
export const ID_LISTS = new Set(['epcList', 'childEPCs', 'inputEPCList', 'outputEPCList']);
export const QUANTITY_LISTS = new Set(['quantityList', 'childQuantityList', 'inputQuantityList', 'outputQuantityList']);
export const TEXT_FIELDS = new Set([
  'eventTime',
  'recordTime',
  'eventTimeZoneOffset',
  'eventID',
  'certificationInfo',
  'action',
  'parentID',
  'transformationID',
]);
/** 1.2's wrappers (and 2.0's `extension` slots) whose content belongs to the element around them. */
const WRAPPERS = new Set(['extension', 'baseExtension']);
export const EVENT_TYPES = [
  'ObjectEvent',
  'AggregationEvent',
  'TransactionEvent',
  'TransformationEvent',
  'AssociationEvent',
] as const;

class Reader {
  readonly prefixes = new Prefixes();
  readonly issues: XmlIssue[] = [];
  readonly leftOut: XmlLeftOut[] = [];
  /** Elements read through a wrapper: in 1.2, one of no namespace there sits in an `any ##local` slot. */
  private readonly wrapped = new WeakSet<XmlElement>();
  /** The index of the event being read. */
  eventIndex = 0;

  constructor(private readonly version: EpcisXmlVersion) {}

  /** A name of another namespace as `prefix:name`; one of no namespace as it is. */
  private keyOf(namespace: string | null, prefix: string | null, localName: string): string {
    return namespace ? `${this.prefixes.of(namespace, prefix)}:${localName}` : localName;
  }

  /** The children of an element with the wrappers read through, in document order. */
  fieldsOf(element: XmlElement): XmlElement[] {
    // A loop, not flatMap: every element of every event is read through here.
    const out: XmlElement[] = [];
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType !== ELEMENT_NODE) continue;
      const field = child as XmlElement;
      if (!isEpcis(field) || !WRAPPERS.has(field.localName ?? '')) {
        out.push(field);
        continue;
      }
      for (const inner of this.fieldsOf(field)) {
        this.wrapped.add(inner);
        out.push(inner);
      }
    }
    return out;
  }

  /** A company's extension element: its text, or an object of its children (a name repeated is an array). */
  extensionValue(element: XmlElement): Json {
    const children = elementsOf(element);
    const attributes: JsonObject = {};
    for (let i = 0; i < element.attributes.length; i++) {
      const attribute = element.attributes[i];
      if (attribute.namespaceURI === XMLNS || attribute.namespaceURI === XSI || attribute.name === 'xmlns') continue;
      attributes[this.keyOf(attribute.namespaceURI, attribute.prefix, attribute.localName ?? attribute.name)] =
        attribute.value;
    }
    if (!children.length) {
      const text = element.textContent ?? '';
      return Object.keys(attributes).length ? { ...attributes, ...(text.trim() ? { '@value': text } : {}) } : text;
    }
    const object: JsonObject = attributes;
    for (const child of children) this.addExtension(object, child);
    return object;
  }

  private addExtension(object: JsonObject, element: XmlElement): void {
    const key = this.keyOf(element.namespaceURI, element.prefix, element.localName ?? element.nodeName);
    const value = this.extensionValue(element);
    const existing = object[key];
    if (existing === undefined) object[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else object[key] = [existing, value];
  }

  private unknown(element: XmlElement): void {
    if (this.version === '1.2' && this.wrapped.has(element)) {
      this.leftOut.push({
        index: this.eventIndex,
        pointer: xpathOf(element),
        message: `${element.localName} has no namespace: EPCIS 1.2 allows that in an extension, but JSON-LD cannot name it, so it was left out. Put a company's own data in an element of its own namespace to keep it.`,
      });
      return;
    }
    this.issues.push({
      pointer: xpathOf(element),
      message: `${element.localName} is not a field of EPCIS this service can map to JSON-LD: put a company's own data in an element of its own namespace.`,
    });
  }

  /** Children of the EPCIS namespace go through `read`; the rest are extensions kept as data. */
  private object(element: XmlElement, read: (child: XmlElement, out: JsonObject) => boolean): JsonObject {
    const out: JsonObject = {};
    for (const child of this.fieldsOf(element)) {
      if (!isEpcis(child)) this.addExtension(out, child);
      else if (!read(child, out)) this.unknown(child);
    }
    return out;
  }

  private quantities(element: XmlElement): JsonObject[] {
    return elementsOf(element).map((q) =>
      this.object(q, (field, out) => {
        if (field.localName === 'epcClass' || field.localName === 'uom') out[field.localName] = textOf(field);
        else if (field.localName === 'quantity') {
          if (field.getAttributeNS(XSI, 'nil') !== 'true') out.quantity = Number(textOf(field));
        } else return false;
        return true;
      }),
    );
  }

  private sensorAttributes(element: XmlElement, numbers: boolean): JsonObject {
    const out: JsonObject = {};
    for (let i = 0; i < element.attributes.length; i++) {
      const attribute = element.attributes[i];
      if (attribute.namespaceURI === XMLNS || attribute.name === 'xmlns') continue;
      const name = attribute.localName ?? attribute.name;
      if (attribute.namespaceURI) out[this.keyOf(attribute.namespaceURI, attribute.prefix, name)] = attribute.value;
      else if (numbers && SENSOR_NUMBERS.has(name)) out[name] = Number(attribute.value);
      else if (numbers && name === 'booleanValue')
        out[name] = attribute.value.trim() === 'true' || attribute.value.trim() === '1';
      else if (numbers && name === 'type') out[name] = sensorTypeWord(attribute.value);
      else out[name] = attribute.value;
    }
    return out;
  }

  private sensorElements(element: XmlElement): JsonObject[] {
    return this.fieldsOf(element).flatMap((sensor) => {
      if (!isEpcis(sensor) || sensor.localName !== 'sensorElement') {
        this.unknown(sensor);
        return [];
      }
      const reports: JsonObject[] = [];
      const out = this.object(sensor, (field, target) => {
        if (field.localName === 'sensorMetadata') target.sensorMetadata = this.sensorAttributes(field, false);
        else if (field.localName === 'sensorReport') reports.push(this.sensorAttributes(field, true));
        else return false;
        return true;
      });
      return [{ ...out, sensorReport: reports }];
    });
  }

  private typed(element: XmlElement, vocabulary: CbvVocabulary, valueKey: string): JsonObject {
    const type = element.getAttribute('type');
    return { ...(type ? { type: cbvWord(vocabulary, type.trim()) } : {}), [valueKey]: textOf(element) };
  }

  /** One EPCIS field of an event (or of its error declaration); false when it is none. */
  private field(field: XmlElement, out: JsonObject): boolean {
    const name = field.localName ?? '';
    if (TEXT_FIELDS.has(name)) out[name] = textOf(field);
    else if (ID_LISTS.has(name)) out[name] = elementsOf(field).map(textOf);
    else if (QUANTITY_LISTS.has(name)) out[name] = this.quantities(field);
    else if (name === 'bizStep') out.bizStep = cbvWord('bizstep', textOf(field));
    else if (name === 'disposition') out.disposition = cbvWord('disp', textOf(field));
    else if (name === 'readPoint' || name === 'bizLocation') {
      out[name] = this.object(field, (id, target) => {
        if (id.localName !== 'id') return false;
        target.id = textOf(id);
        return true;
      });
    } else if (name === 'bizTransactionList')
      out.bizTransactionList = elementsOf(field).map((t) => this.typed(t, 'btt', 'bizTransaction'));
    else if (name === 'sourceList') out.sourceList = elementsOf(field).map((t) => this.typed(t, 'sdt', 'source'));
    else if (name === 'destinationList')
      out.destinationList = elementsOf(field).map((t) => this.typed(t, 'sdt', 'destination'));
    else if (name === 'sensorElementList') out.sensorElementList = this.sensorElements(field);
    else if (name === 'persistentDisposition') {
      const terms = (kind: string) =>
        elementsOf(field)
          .filter((d) => d.localName === kind)
          .map((d) => cbvWord('disp', textOf(d)));
      const [set, unset] = [terms('set'), terms('unset')];
      out.persistentDisposition = { ...(set.length ? { set } : {}), ...(unset.length ? { unset } : {}) };
    } else if (name === 'ilmd') out.ilmd = this.object(field, () => false);
    else if (name === 'errorDeclaration') {
      out.errorDeclaration = this.object(field, (part, target) => {
        if (part.localName === 'declarationTime') target.declarationTime = textOf(part);
        else if (part.localName === 'reason') target.reason = cbvWord('er', textOf(part));
        else if (part.localName === 'correctiveEventIDs') target.correctiveEventIDs = elementsOf(part).map(textOf);
        else return false;
        return true;
      });
    } else return false;
    return true;
  }

  event(element: XmlElement): JsonObject {
    const type = element.localName ?? '';
    return { type, ...this.object(element, (field, out) => this.field(field, out)) };
  }

  /** The events of an EventList, 1.2's `extension` (TransformationEvent) and `extension/extension` (AssociationEvent) read through. */
  eventElements(list: XmlElement): XmlElement[] {
    return this.fieldsOf(list).filter((element) => {
      if (isEpcis(element) && (EVENT_TYPES as readonly string[]).includes(element.localName ?? '')) return true;
      this.issues.push({
        pointer: xpathOf(element),
        message:
          element.localName === 'QuantityEvent'
            ? 'QuantityEvent was withdrawn by EPCIS 1.1 and has no JSON-LD form: send it as an ObjectEvent with a quantityList.'
            : `${element.localName} is not an EPCIS event this service captures (${EVENT_TYPES.join(', ')}).`,
      });
      return false;
    });
  }

  /** A master data attribute with element content: its children as an extension object (its own `id` is the attribute's). */
  private attributeObject(attribute: XmlElement): JsonObject {
    const object: JsonObject = {};
    for (const child of elementsOf(attribute)) this.addExtension(object, child);
    return object;
  }

  /** EPCISMasterData's vocabularies in the JSON-LD form (epcisHeader.epcisMasterData.vocabularyList). */
  vocabularies(masterData: XmlElement): JsonObject[] {
    const list = childNamed(masterData, 'VocabularyList');
    return (list ? elementsOf(list) : []).map((vocabulary) => {
      const elements = childNamed(vocabulary, 'VocabularyElementList');
      return {
        type: vocabulary.getAttribute('type') ?? '',
        vocabularyElementList: (elements ? elementsOf(elements) : []).map((element) => {
          const attributes = elementsOf(element).filter((a) => isEpcis(a) && a.localName === 'attribute');
          const children = childNamed(element, 'children');
          return {
            id: element.getAttribute('id') ?? '',
            ...(attributes.length
              ? {
                  attributes: attributes.map((a) => ({
                    id: a.getAttribute('id') ?? '',
                    attribute: elementsOf(a).length ? this.attributeObject(a) : textOf(a),
                  })),
                }
              : {}),
            ...(children ? { children: elementsOf(children).map(textOf) } : {}),
          };
        }),
      };
    });
  }
}

/** Which binding a root element is in, or undefined when it is neither EPCIS 2.0 nor 1.2 XML. */
export function versionOfRoot(root: XmlElement): EpcisXmlVersion | undefined {
  for (const version of ['2.0', '1.2'] as const) {
    if (root.namespaceURI === EPCIS_XML_NAMESPACES[version] && root.localName === 'EPCISDocument') return version;
    if (root.namespaceURI === EPCIS_QUERY_XML_NAMESPACES[version] && root.localName === 'EPCISQueryDocument')
      return version;
  }
  return undefined;
}

/** The event list element of an EPCISDocument or an EPCISQueryDocument's results. */
function eventListOf(root: XmlElement): XmlElement | undefined {
  const body = childNamed(root, 'EPCISBody');
  if (!body) return undefined;
  if (root.localName === 'EPCISDocument') return childNamed(body, 'EventList');
  const results = elementsOf(body).find((e) => e.localName === 'QueryResults');
  const resultsBody = results && childNamed(results, 'resultsBody');
  return resultsBody && childNamed(resultsBody, 'EventList');
}

/** An XSD-valid EPCIS XML document (root in one of the two bindings' namespaces) as its JSON-LD EPCISDocument. */
export function jsonLdOfXml(root: XmlElement, version: EpcisXmlVersion): XmlDocument {
  const reader = new Reader(version);
  const list = eventListOf(root);
  const elements = list ? reader.eventElements(list) : [];
  const eventList = elements.map((element, index) => {
    reader.eventIndex = index;
    return reader.event(element);
  });
  const header = childNamed(root, 'EPCISHeader');
  const masterData = header && reader.fieldsOf(header).find((e) => isEpcis(e) && e.localName === 'EPCISMasterData');
  const document = {
    type: 'EPCISDocument',
    schemaVersion: '2.0',
    creationDate: root.getAttribute('creationDate') ?? '',
    ...(masterData ? { epcisHeader: { epcisMasterData: { vocabularyList: reader.vocabularies(masterData) } } } : {}),
    epcisBody: { eventList },
  };
  return {
    version,
    document: { '@context': [GS1_EPCIS_CONTEXT, ...reader.prefixes.context()], ...document },
    eventPaths: xpathsOf(elements),
    issues: reader.issues,
    leftOut: reader.leftOut,
  };
}
