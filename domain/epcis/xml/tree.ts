/**
 * An XML text as a namespace-aware tree of elements, attributes and text, with the line and column of
 * each element's start tag: the part of the DOM the mapping (./from-xml.ts) and the fault locations
 * (./read.ts) read, named as the DOM names it, so a DOM element (@xmldom/xmldom's, as tests build them)
 * is one as well.
 *
 * Read by saxes (a well-kept, conformant, namespace-aware SAX parser, as jsdom uses): a 500-event
 * capture is read in about a fifth of the CPU @xmldom/xmldom 0.9 takes, which compiles a Unicode regular
 * expression for every end tag. Pure.
 */
import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from 'saxes';

export const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** A node of the tree: an element or a run of text (CDATA sections are text). */
export interface XmlNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly parentNode: XmlNode | null;
  readonly firstChild: XmlNode | null;
  readonly lastChild: XmlNode | null;
  readonly nextSibling: XmlNode | null;
  readonly previousSibling: XmlNode | null;
  readonly textContent: string | null;
}

export interface XmlAttribute {
  readonly name: string;
  readonly namespaceURI: string | null;
  readonly prefix: string | null;
  readonly localName: string | null;
  readonly value: string;
}

export interface XmlElement extends XmlNode, Pick<XmlAttribute, 'namespaceURI' | 'prefix' | 'localName'> {
  readonly attributes: { readonly length: number; readonly [index: number]: XmlAttribute };
  getAttribute(name: string): string | null;
  getAttributeNS(namespace: string | null, localName: string): string | null;
  /** Where the start tag begins, 1-based. */
  readonly lineNumber?: number;
  readonly columnNumber?: number;
}

abstract class TreeNode implements XmlNode {
  abstract readonly nodeType: number;
  abstract readonly nodeName: string;
  abstract readonly textContent: string;
  parentNode: TreeElement | null = null;
  nextSibling: TreeNode | null = null;
  previousSibling: TreeNode | null = null;
  readonly firstChild: TreeNode | null = null;
  readonly lastChild: TreeNode | null = null;
}

class TreeText extends TreeNode {
  readonly nodeType = TEXT_NODE;
  readonly nodeName = '#text';
  constructor(public textContent: string) {
    super();
  }
}

class TreeElement extends TreeNode implements XmlElement {
  readonly nodeType = ELEMENT_NODE;
  override firstChild: TreeNode | null = null;
  override lastChild: TreeNode | null = null;

  constructor(
    readonly nodeName: string,
    readonly localName: string,
    readonly prefix: string | null,
    readonly namespaceURI: string | null,
    readonly attributes: readonly XmlAttribute[],
    readonly lineNumber: number,
    readonly columnNumber: number,
  ) {
    super();
  }

  get textContent(): string {
    let text = '';
    for (let child = this.firstChild; child; child = child.nextSibling) text += child.textContent;
    return text;
  }

  getAttribute(name: string): string | null {
    return this.attributes.find((a) => a.name === name)?.value ?? null;
  }

  getAttributeNS(namespace: string | null, localName: string): string | null {
    return (
      this.attributes.find((a) => (a.namespaceURI ?? null) === namespace && a.localName === localName)?.value ?? null
    );
  }

  append(child: TreeNode): void {
    child.parentNode = this;
    child.previousSibling = this.lastChild;
    if (this.lastChild) this.lastChild.nextSibling = child;
    else this.firstChild = child;
    this.lastChild = child;
  }
}

const attributeOf = ({ name, prefix, local, uri, value }: SaxesAttributeNS): XmlAttribute => ({
  name,
  prefix: prefix || null,
  localName: local,
  namespaceURI: uri || null,
  value,
});

const NO_ATTRIBUTES: readonly XmlAttribute[] = [];

/** Most elements have none: one shared empty list, not an array made per element (1.7 ms of a 500-event document). */
function attributesOf(attributes: Record<string, SaxesAttributeNS>): readonly XmlAttribute[] {
  let out: XmlAttribute[] | undefined;
  for (const name in attributes) (out ??= []).push(attributeOf(attributes[name]));
  return out ?? NO_ATTRIBUTES;
}

/** saxes's message, with the end tag it did not expect named (the text read so far ends with it). */
function faultOf(message: string, read: string, open: string): string {
  if (message !== 'unexpected close tag.') return message;
  const end = /<\/([^\s>]*)\s*>?$/.exec(read)?.[1] ?? '';
  return `the end tag </${end}> does not close the element <${open}> open there.`;
}

/** The root element of the text, or its first fault (saxes's message, with its line and column). */
export function xmlTree(source: string): { root: XmlElement } | { fault: string } {
  // XML reads every line break as \n (XML 1.0, 2.11): the positions below count characters of that text.
  const text = (source.charCodeAt(0) === 0xfeff ? source.slice(1) : source).replace(/\r\n?/g, '\n');
  const parser = new SaxesParser({ xmlns: true, position: true });
  let root: TreeElement | undefined;
  let current: TreeElement | undefined;
  let start = { line: 0, column: 0 };
  // Where the start tag's '<' is: the parser names the tag once it has read the character after the name,
  // which may have been a line break.
  parser.on('opentagstart', (tag) => {
    const at = parser.position - tag.name.length - 2;
    start =
      parser.column === 0
        ? { line: parser.line - 1, column: at - text.lastIndexOf('\n', at) }
        : { line: parser.line, column: parser.column - tag.name.length - 1 };
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    const element = new TreeElement(
      tag.name,
      tag.local,
      tag.prefix || null,
      tag.uri || null,
      attributesOf(tag.attributes),
      start.line,
      start.column,
    );
    if (current) current.append(element);
    else root = element;
    current = element;
  });
  let closed = '';
  parser.on('closetag', (tag) => {
    closed = tag.name;
    current = current?.parentNode ?? undefined;
  });
  const characters = (data: string) => {
    if (!current) return;
    // Adjacent runs (text beside CDATA) are one text, as a DOM normalises them.
    const last = current.lastChild;
    if (last instanceof TreeText) last.textContent += data;
    else current.append(new TreeText(data));
  };
  parser.on('text', characters);
  parser.on('cdata', characters);
  let fault: string | undefined;
  parser.on('error', (error) => {
    fault = `${faultOf(error.message.replace(/^\d+:\d+: /, ''), text.slice(0, parser.position), closed)} (line ${parser.line}, column ${parser.column + 1})`;
    // The first fault ends the reading: what follows it is no longer the sender's structure.
    throw error;
  });
  try {
    parser.write(text).close();
  } catch (error) {
    return { fault: fault ?? (error as Error).message };
  }
  return root ? { root } : { fault: 'no root element' };
}
