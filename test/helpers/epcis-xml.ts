/**
 * Helpers of the EPCIS XML tests: GS1's example pairs (test/fixtures/gs1-epcis, the same documents in
 * XML and JSON-LD, as GS1 publishes them), XSD validation of an answer, and the normal form two events
 * are compared in (the two bindings spell the same instant, number or extension value differently).
 */
import fs from 'node:fs';
import path from 'node:path';
import { validateXML, type XMLFileInfo } from 'xmllint-wasm';

export const FIXTURES = path.join(__dirname, '..', 'fixtures', 'gs1-epcis');
export const fixture = (name: string): string => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
export const fixtureJson = <T = { epcisBody: { eventList: Record<string, unknown>[] }; '@context': unknown[] }>(
  name: string,
): T => JSON.parse(fixture(name)) as T;

const XSD = path.join(__dirname, '..', '..', 'platform', 'epcis-xsd', 'schemas');
/** GS1's XSDs as the service ships them: the query XSD (importing the rest) of the version. */
export async function xsdErrors(xml: string, version: '2.0' | '1.2' = '2.0'): Promise<string[]> {
  const folder = path.join(XSD, version);
  const files: XMLFileInfo[] = fs
    .readdirSync(folder)
    .map((fileName) => ({ fileName, contents: fs.readFileSync(path.join(folder, fileName), 'utf8') }));
  const main = version === '2.0' ? 'EPCglobal-epcis-query-2_0.xsd' : 'EPCglobal-epcis-query-1_2.xsd';
  const result = await validateXML({
    xml: { fileName: 'answer.xml', contents: xml },
    schema: files.find((f) => f.fileName === main)!,
    preload: files.filter((f) => f.fileName !== main),
  });
  return result.errors.map((e) => e.rawMessage);
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An event in the form both bindings agree on: no eventID or recordTime (the service assigns them),
 * times as UTC instants, every scalar as its text, extension keys by prefix (the two files of a GS1 pair
 * sometimes spell a namespace with and without its trailing slash).
 */
export const normalisedEvents = (events: unknown[]): unknown[] =>
  events.map((event) => normalised(event, new Set(['eventID', 'recordTime'])));

function normalised(value: unknown, drop: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => normalised(item, new Set()));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !drop.has(key))
        .map(([key, item]) => [key, normalised(item, new Set())]),
    );
  }
  if (typeof value === 'string' && DATE_TIME.test(value)) return new Date(value).toISOString();
  if (typeof value === 'string') return value.trim();
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}
