/**
 * Reading an EPCIS XML body before its mapping (./from-xml.ts): the guard against DTDs, parsing with the
 * line and column of each element, counting its events, and naming the element an XSD fault is about.
 * Pure: the caller reads the bytes, runs GS1's XSD (platform/epcis-xsd) and answers.
 */
import { EVENT_TYPES, xpathOf, type XmlIssue } from './from-xml';
import { ELEMENT_NODE, xmlTree, type XmlElement, type XmlNode } from './tree';

/**
 * No EPCIS document needs a DTD, and a DTD is how an XML bomb (entities expanding to gigabytes) or an
 * external entity (a file of this server, a URL) gets in: a DOCTYPE naming more than its root (as some
 * of GS1's own examples carry) is refused before any parser sees it.
 */
export function dtdIssue(text: string): XmlIssue | undefined {
  if (/<!ENTITY/i.test(text))
    return {
      pointer: '/',
      message: 'The document declares entities (<!ENTITY>): EPCIS XML takes none, so nothing was parsed.',
    };
  const doctype = /<!DOCTYPE([^>]*)>/i.exec(text);
  if (doctype && !/^\s*[\w:.-]+\s*$/.test(doctype[1]))
    return {
      pointer: '/',
      message:
        'The document has a DOCTYPE with an internal subset or an external DTD: EPCIS XML takes none, so nothing was parsed.',
    };
  return undefined;
}

/** The tree of the text (./tree.ts), or the first fault with its line and column. */
export function parseXml(text: string): { root: XmlElement } | { issue: XmlIssue } {
  const tree = xmlTree(text);
  if ('root' in tree) return tree;
  return { issue: { pointer: '/', message: `The XML is not well-formed: ${tree.fault.replace(/\s+/g, ' ').trim()}` } };
}

/** The element an xmllint message at `line` is about: the one of that line with the name the message gives, else the line's first. */
function elementAt(root: XmlElement, line: number, message: string): XmlElement | undefined {
  const named = /Element '(?:\{([^}]*)\})?([^']+)'/.exec(message);
  const candidates: XmlElement[] = [];
  const stack: XmlNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.nodeType !== ELEMENT_NODE) continue;
    const element = node as XmlElement;
    if (element.lineNumber === line) candidates.push(element);
    for (let child = element.lastChild; child; child = child.previousSibling) stack.push(child);
  }
  return (
    candidates.find((e) => named && e.localName === named[2] && (e.namespaceURI ?? '') === (named[1] ?? '')) ??
    candidates[0]
  );
}

/** An XSD fault (libxml2's message and line) as an issue naming the element's XPath-like location and its line. */
export function xsdFaultIssue(root: XmlElement, { message, line }: { message: string; line: number }): XmlIssue {
  const element = line ? elementAt(root, line, message) : undefined;
  const where = element ? ` (line ${line}, column ${element.columnNumber})` : line ? ` (line ${line})` : '';
  return { pointer: element ? xpathOf(element) : '/', message: `${message.trim()}${where}` };
}

/** The elements eventCount counts: the events, and 1.2's withdrawn QuantityEvent, which the mapping then refuses. */
const COUNTED: ReadonlySet<string> = new Set([...EVENT_TYPES, 'QuantityEvent']);

/** How many events an EventList holds (1.2's wrapped ones too), counted without the mapping: the capture limit comes before the XSD. */
export function eventCount(root: XmlElement): number {
  let count = 0;
  const stack: XmlNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.nodeType !== ELEMENT_NODE) continue;
    const element = node as XmlElement;
    if (!element.namespaceURI && COUNTED.has(element.localName ?? '')) {
      count++;
      continue;
    }
    for (let child = element.firstChild; child; child = child.nextSibling) stack.push(child);
  }
  return count;
}

/** A JSON pointer of the JSON-LD document as the XPath-like location of the XML element it came from. */
export function xmlPointer(pointer: string, eventPaths: string[]): string {
  const match = /^\/epcisBody\/eventList\/(\d+)(.*)$/.exec(pointer);
  if (match && eventPaths[Number(match[1])]) return eventPaths[Number(match[1])] + match[2];
  return pointer;
}
