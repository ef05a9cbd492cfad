/**
 * A worker thread of the XSD pool (./pool.ts): libxml2's XSD validator (libxml2-wasm), GS1's XSDs compiled
 * once per thread and version, then each document checked against them in milliseconds.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { XsdValidator } from 'libxml2-wasm';
import type { EpcisXmlVersion } from '../../domain/epcis/xml/from-xml';
import { XSD_SETS, type XsdIssue, type XsdTask } from './sets';

const xsdUrl = (version: EpcisXmlVersion, name: string): string => `file:///epcis-xsd/${version}/${name}`;

const xsdFiles: Record<string, Uint8Array> = {};
for (const version of Object.keys(XSD_SETS) as EpcisXmlVersion[]) {
  const folder = path.join(__dirname, 'schemas', XSD_SETS[version].folder);
  for (const name of fs.readdirSync(folder).filter((n) => n.endsWith('.xsd')))
    xsdFiles[xsdUrl(version, name)] = fs.readFileSync(path.join(folder, name));
}

// An ES module whose WebAssembly loads with a top-level await: imported, not required.
const libxml2 = import('libxml2-wasm').then((lib) => {
  // The XSDs' imports (relative schemaLocations) are answered from these bytes; nothing else is read.
  lib.xmlRegisterInputProvider(new lib.XmlBufferInputProvider(xsdFiles));
  return lib;
});

const validators: Partial<Record<EpcisXmlVersion, Promise<XsdValidator>>> = {};
const validatorOf = (version: EpcisXmlVersion): Promise<XsdValidator> =>
  (validators[version] ??= libxml2.then((lib) => {
    const url = xsdUrl(version, XSD_SETS[version].main);
    // The schema document stays with its validator for the thread's life.
    return lib.XsdValidator.fromDoc(lib.XmlDocument.fromBuffer(xsdFiles[url], { url }));
  }));

const SBDH_NAMESPACE = 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader';

/**
 * Every fault of the document against its version's XSD (a parse fault included), none when it is valid.
 * The service keeps no Standard Business Document Header: one that breaks its own schema (OpenTraceability's
 * test server writes Sender before HeaderVersion) refuses nothing when the document is valid without it.
 */
export default async function validate({ text, version }: XsdTask): Promise<XsdIssue[]> {
  const lib = await libxml2;
  const validator = await validatorOf(version);
  let document;
  try {
    document = lib.XmlDocument.fromString(text);
  } catch (error) {
    if (error instanceof lib.XmlParseError) return error.details.map(({ message, line }) => ({ message, line }));
    throw error;
  }
  try {
    validator.validate(document);
    return [];
  } catch (error) {
    if (!(error instanceof lib.XmlValidateError)) throw error;
    // Warnings (level 1) are about GS1's XSDs themselves (an import repeated), not the document's faults.
    const faults = error.details.filter((d) => d.level >= 2).map(({ message, line }) => ({ message, line }));
    const header = document.get('/*/EPCISHeader/sbdh:StandardBusinessDocumentHeader', { sbdh: SBDH_NAMESPACE });
    if (!header) return faults;
    header.remove();
    try {
      validator.validate(document);
      return [];
    } catch {
      return faults;
    }
  } finally {
    document.dispose();
  }
}
