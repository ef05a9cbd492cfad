import fs from 'node:fs';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { jsonLdOfXml, versionOfRoot } from '../../domain/epcis/xml/from-xml';
import { parseXml } from '../../domain/epcis/xml/read';
import { ELEMENT_NODE, xmlTree, type XmlElement } from '../../domain/epcis/xml/tree';
import { FIXTURES } from '../helpers/epcis-xml';

const xmlFiles = (folder: string): string[] =>
  fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return xmlFiles(file);
    return entry.name.endsWith('.xml') ? [file] : [];
  });

const treeOf = (text: string): XmlElement => {
  const tree = xmlTree(text);
  if (!('root' in tree)) throw new Error(tree.fault);
  return tree.root;
};
const domOf = (text: string) =>
  new DOMParser().parseFromString(text.replace(/^\uFEFF/, ''), 'text/xml').documentElement!;

/** Every element, depth first, as name@line:column. */
function positions(root: XmlElement): string[] {
  const out: string[] = [];
  const walk = (element: XmlElement) => {
    out.push(`${element.nodeName}@${element.lineNumber}:${element.columnNumber}`);
    for (let child = element.firstChild; child; child = child.nextSibling)
      if (child.nodeType === ELEMENT_NODE) walk(child as XmlElement);
  };
  walk(root);
  return out;
}

describe('the XML tree the capture reads (domain/epcis/xml/tree.ts)', () => {
  const files = xmlFiles(path.join(FIXTURES, 'XML'));

  it.each(files.map((file) => [path.relative(FIXTURES, file), file]))(
    '%s maps to the JSON-LD a DOM of it maps to, each element at the DOM’s line and column',
    (_name, file) => {
      const text = fs.readFileSync(file, 'utf8');
      const tree = treeOf(text);
      const dom = domOf(text);
      const version = versionOfRoot(dom)!;
      expect(versionOfRoot(tree)).toBe(version);
      expect(jsonLdOfXml(tree, version)).toEqual(jsonLdOfXml(dom, version));
      expect(positions(tree)).toEqual(positions(dom));
    },
  );

  it('line breaks are \\n whatever the sender wrote, and a start tag over two lines is where its < is', () => {
    const text = '\uFEFF<a>\r\n  <b\r\n x="1\n2\t3"/>\r<c\ny="2">t<![CDATA[<u>]]>v</c></a>';
    const tree = treeOf(text);
    expect(positions(tree)).toEqual(positions(domOf(text)));
    expect(positions(tree)).toEqual(['a@1:1', 'b@2:3', 'c@5:1']);
    expect(tree.textContent).toBe('\n  \nt<u>v');
    const b = tree.firstChild!.nextSibling as XmlElement;
    expect(b.getAttribute('x')).toBe('1 2 3');
  });

  it('a fault names what is wrong, its line and its column', () => {
    const fault = (text: string) => {
      const parsed = parseXml(text);
      return 'issue' in parsed ? parsed.issue.message : 'parsed';
    };
    expect(fault('<a>\n  <action>x</actio></a>')).toBe(
      'The XML is not well-formed: the end tag </actio> does not close the element <action> open there. (line 2, column 20)',
    );
    expect(fault('<a>&xxe;</a>')).toMatch(/not well-formed: undefined entity\. \(line 1, column \d+\)/);
    expect(fault('<a/><b/>')).toMatch(/only one root/);
    expect(fault('<p:a/>')).toMatch(/unbound namespace prefix: "p"/);
    expect(fault('')).toMatch(/root element/);
  });
});
