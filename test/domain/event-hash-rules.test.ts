import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { eventHashId, namespacesOfContext, preHashLines } from '../../domain/epcis/event-hash';
import { jsonLdOfXml, versionOfRoot } from '../../domain/epcis/xml/from-xml';

/**
 * One test per rule of CBV 2.0's event hash ID (section 8.9), with GS1's XML examples and variants of them:
 * a changed value anywhere is a different hash; another spelling of the same event is the same hash.
 */
const GS1 = join(__dirname, '../fixtures/gs1-epcis/XML');
type Event = Record<string, unknown>;

/** The events of an EPCIS XML document, as the capture reads them, each with its hash id. */
function hashesOfXml(xml: string): { events: Event[]; hashes: string[] } {
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement!;
  const { document, issues } = jsonLdOfXml(root, versionOfRoot(root)!);
  expect(issues).toEqual([]);
  const namespaces = namespacesOfContext(document['@context']);
  const events = document.epcisBody.eventList as Event[];
  return { events, hashes: events.map((event) => eventHashId(event, namespaces)) };
}
const gs1 = (file: string) => readFileSync(join(GS1, file), 'utf8');
const hashOf = (xml: string) => hashesOfXml(xml).hashes[0];

const FULL = gs1('WithFullCombinationOfFields/transformation_event_all_possible_fields.xml');
const EXTENSIONS = gs1('WithExtension/TransformationEvent.xml');

describe('CBV 2.0 event hash ids: a changed value anywhere is another hash', () => {
  it('an extension element with attributes and text: its text counts (cbvmda:netWeight 3.5 → 999)', () => {
    const changed = FULL.replace(
      '<cbvmda:netWeight measurementUnitCode="KGM">3.5</cbvmda:netWeight>',
      '<cbvmda:netWeight measurementUnitCode="KGM">999</cbvmda:netWeight>',
    );
    expect(changed).not.toBe(FULL);
    expect(hashOf(changed)).not.toBe(hashOf(FULL));
  });

  it('an extension element with attributes and text: its attributes count too', () => {
    const changed = FULL.replace(
      '<cbvmda:netWeight measurementUnitCode="KGM">3.5</cbvmda:netWeight>',
      '<cbvmda:netWeight measurementUnitCode="LBR">3.5</cbvmda:netWeight>',
    );
    expect(hashOf(changed)).not.toBe(hashOf(FULL));
  });

  it.each(['readPoint', 'bizLocation'])('a user extension inside %s counts', (field) => {
    const original = field === 'readPoint' ? '(414)4023333000000' : '(414)4023333000017 (254)12';
    const changed = EXTENSIONS.replace(
      `<example:gs1ES>${original}</example:gs1ES>`,
      '<example:gs1ES>other</example:gs1ES>',
    );
    expect(changed).not.toBe(EXTENSIONS);
    expect(hashOf(changed)).not.toBe(hashOf(EXTENSIONS));
  });

  it('a user extension inside a sensor element, its metadata or a report counts', () => {
    for (const [from, to] of [
      [
        '<example:someUserField>abc123</example:someUserField>',
        '<example:someUserField>abc124</example:someUserField>',
      ],
      ['example:someFurtherMetaData="someText"', 'example:someFurtherMetaData="otherText"'],
      ['example:cv="123"', 'example:cv="124"'],
      ['<example:measure1>123.5</example:measure1>', '<example:measure1>123.6</example:measure1>'],
    ]) {
      const changed = EXTENSIONS.replace(from, to);
      expect(changed).not.toBe(EXTENSIONS);
      expect(hashOf(changed)).not.toBe(hashOf(EXTENSIONS));
    }
  });

  it('sensor data counts: a report value, a metadata time', () => {
    for (const [from, to] of [
      ['minValue="12.4"', 'minValue="12.5"'],
      ['startTime="2019-04-01T15:00:00.000+01:00"', 'startTime="2019-04-01T15:00:01.000+01:00"'],
    ]) {
      const changed = EXTENSIONS.replace(from, to);
      expect(changed).not.toBe(EXTENSIONS);
      expect(hashOf(changed)).not.toBe(hashOf(EXTENSIONS));
    }
  });

  it('an empty extension element is part of the event: adding one is another hash', () => {
    const events = hashesOfXml(EXTENSIONS).events;
    expect(JSON.stringify(events[0])).toContain('futureExtension');
    const added = EXTENSIONS.replace(
      '<example4:otherThings>some text</example4:otherThings>',
      '<example4:otherThings>some text</example4:otherThings><example4:flag/>',
    );
    expect(hashOf(added)).not.toBe(hashOf(EXTENSIONS));
  });

  it('a value nested deep in a user extension counts', () => {
    const changed = EXTENSIONS.replace('<tag2>2</tag2>', '<tag2>20</tag2>');
    expect(hashOf(changed)).not.toBe(hashOf(EXTENSIONS));
  });
});

describe('CBV 2.0 event hash ids: the same event in another form is the same hash', () => {
  it('repeated same-name extension elements in another order', () => {
    const a = EXTENSIONS.replace(
      '<example4:otherThings>some text</example4:otherThings>',
      '<example4:otherThings>some text</example4:otherThings><example4:otherThings>more text</example4:otherThings>',
    );
    const b = EXTENSIONS.replace(
      '<example4:otherThings>some text</example4:otherThings>',
      '<example4:otherThings>more text</example4:otherThings><example4:otherThings>some text</example4:otherThings>',
    );
    expect(hashOf(a)).toBe(hashOf(b));
    expect(hashOf(a)).not.toBe(hashOf(EXTENSIONS));
  });

  it('repeated same-name extension objects in another order', () => {
    const one = '<example:internalData><example:machine>M1</example:machine></example:internalData>';
    const two = '<example:internalData><example:machine>M2</example:machine></example:internalData>';
    const a = EXTENSIONS.replace('<example4:otherThings>', `${one}${two}<example4:otherThings>`);
    const b = EXTENSIONS.replace('<example4:otherThings>', `${two}${one}<example4:otherThings>`);
    expect(hashOf(a)).toBe(hashOf(b));
  });

  it('a JSON-LD array of extension values in another order', () => {
    const event = (values: string[]) => ({
      type: 'ObjectEvent',
      eventTime: '2024-03-01T10:00:00.000Z',
      eventTimeZoneOffset: '+00:00',
      epcList: ['urn:epc:id:sgtin:4012345.011111.1'],
      action: 'OBSERVE',
      'ex:tags': values,
      'ex:nested': { 'ex:list': values.map((value) => ({ 'ex:v': value })) },
    });
    const namespaces = { ex: 'https://ns.example.com/' };
    expect(eventHashId(event(['b', 'a', 'c']), namespaces)).toBe(eventHashId(event(['a', 'c', 'b']), namespaces));
    expect(eventHashId(event(['a', 'b']), namespaces)).not.toBe(eventHashId(event(['a', 'c']), namespaces));
  });

  it('another namespace prefix for the same namespace', () => {
    const renamed = EXTENSIONS.replaceAll('example4:', 'other4:').replace('xmlns:example4=', 'xmlns:other4=');
    expect(renamed).not.toBe(EXTENSIONS);
    expect(hashOf(renamed)).toBe(hashOf(EXTENSIONS));
  });

  it('the XML and the JSON-LD of one event, extension with attributes and text included', () => {
    const xml = hashesOfXml(EXTENSIONS);
    const jsonLd = JSON.parse(JSON.stringify(xml.events[0])) as Event;
    const context = {
      example: 'http://ns.example.com/epcis',
      example2: 'http://ns.example.com/epcis-2',
      example3: 'http://ns.example.com/epcis-3',
      example4: 'http://ns.example.com/epcis-4',
    };
    expect(eventHashId(jsonLd, namespacesOfContext([context]))).toBe(xml.hashes[0]);
  });

  it('EPCIS 1.2 XML and 2.0 XML of one event', () => {
    const v20 = `<epcis:EPCISDocument xmlns:epcis="urn:epcglobal:epcis:xsd:2" xmlns:ex="https://ns.example.com/" schemaVersion="2.0" creationDate="2024-01-01T00:00:00Z"><EPCISBody><EventList>
      <TransformationEvent><eventTime>2024-03-01T10:00:00.000+01:00</eventTime><eventTimeZoneOffset>+01:00</eventTimeZoneOffset>
        <inputEPCList><epc>urn:epc:id:sgtin:4012345.011111.1</epc></inputEPCList>
        <outputEPCList><epc>urn:epc:id:sgtin:4012345.011111.2</epc></outputEPCList>
        <bizStep>urn:epcglobal:cbv:bizstep:commissioning</bizStep>
        <readPoint><id>urn:epc:id:sgln:4012345.00001.0</id></readPoint>
        <ex:note measurementUnitCode="KGM">2.5</ex:note>
      </TransformationEvent></EventList></EPCISBody></epcis:EPCISDocument>`;
    const v12 = `<epcis:EPCISDocument xmlns:epcis="urn:epcglobal:epcis:xsd:1" xmlns:ex="https://ns.example.com/" schemaVersion="1.2" creationDate="2024-01-01T00:00:00Z"><EPCISBody><EventList>
      <extension><TransformationEvent><eventTime>2024-03-01T10:00:00.000+01:00</eventTime><eventTimeZoneOffset>+01:00</eventTimeZoneOffset>
        <inputEPCList><epc>urn:epc:id:sgtin:4012345.011111.1</epc></inputEPCList>
        <outputEPCList><epc>urn:epc:id:sgtin:4012345.011111.2</epc></outputEPCList>
        <bizStep>urn:epcglobal:cbv:bizstep:commissioning</bizStep>
        <readPoint><id>urn:epc:id:sgln:4012345.00001.0</id></readPoint>
        <ex:note measurementUnitCode="KGM">2.5</ex:note>
      </TransformationEvent></extension></EventList></EPCISBody></epcis:EPCISDocument>`;
    expect(hashOf(v12)).toBe(hashOf(v20));
  });

  const objectEvent = (fields: Event): Event => ({
    type: 'ObjectEvent',
    eventTime: '2024-03-01T10:00:00.000Z',
    eventTimeZoneOffset: '+00:00',
    action: 'OBSERVE',
    ...fields,
  });
  /** The hash ids of two spellings of one event. */
  const hashesOf = (a: Event, b: Event): string[] => [eventHashId(a), eventHashId(b)];

  it('a GRAI as EPC URN and as Digital Link (its 14 digits start with a 0)', () => {
    const [urn, link] = hashesOf(
      objectEvent({ epcList: ['urn:epc:id:grai:0614141.12345.400'] }),
      objectEvent({ epcList: ['https://id.gs1.org/8003/00614141123452400'] }),
    );
    expect(link).toBe(urn);
  });

  it.each([
    ['its query string', 'https://example.com/01/09520123456788/21/12345?linkType=all'],
    ['a GTIN-13 in place of its GTIN-14', 'https://id.gs1.org/01/9520123456788/21/12345'],
    ['a lot beside the serial', 'https://id.gs1.org/01/09520123456788/10/L1/21/12345'],
    ['another percent-encoding of the serial', 'https://id.gs1.org/01/09520123456788/21/12%2f345'],
    ['short names on another host', 'https://brand.example/gtin/9520123456788/lot/L1/ser/12345'],
  ])('a Digital Link with %s is its constrained form', (_, link) => {
    const canonical = link.includes('%2f')
      ? 'https://id.gs1.org/01/09520123456788/21/12%2F345'
      : 'https://id.gs1.org/01/09520123456788/21/12345';
    const [sent, constrained] = hashesOf(objectEvent({ epcList: [link] }), objectEvent({ epcList: [canonical] }));
    expect(sent).toBe(constrained);
  });

  it('a URL that is no Digital Link is a value as it is, though its path names 00 or 01', () => {
    const [a, b] = hashesOf(
      objectEvent({ bizTransactionList: [{ type: 'po', bizTransaction: 'https://a.example/po/00/4711' }] }),
      objectEvent({ bizTransactionList: [{ type: 'po', bizTransaction: 'https://b.example/po/00/4711' }] }),
    );
    expect(a).not.toBe(b);
  });

  it('a time below the millisecond is rounded to it, as GS1’s reference implementation rounds', () => {
    const [below, rounded] = hashesOf(
      objectEvent({ eventTime: '2005-04-05T02:33:31.1169Z' }),
      objectEvent({ eventTime: '2005-04-05T02:33:31.117Z' }),
    );
    expect(below).toBe(rounded);
  });

  it('GS1’s own cbvmda namespace, declared inline with its #, as the XML names it', () => {
    const event = objectEvent({ 'cbvmda:netWeight': { '@value': '3.5', measurementUnitCode: 'KGM' } });
    expect(eventHashId(event, namespacesOfContext([{ cbvmda: 'urn:epcglobal:cbv:mda#' }]))).toBe(
      eventHashId(event, namespacesOfContext([])),
    );
  });

  it('a context that types a term beside its prefixes still defines the prefixes', () => {
    const event = objectEvent({ 'ex:code': 'A1' });
    const prefix = { ex: 'https://ns.example.com/' };
    expect(eventHashId(event, namespacesOfContext([{ ...prefix, 'ex:code': { '@type': '@id' } }]))).toBe(
      eventHashId(event, namespacesOfContext([prefix])),
    );
  });

  it('the pre-hash of a readPoint extension follows the standard fields, under its parent', () => {
    const lines = preHashLines(hashesOfXml(EXTENSIONS).events[0], {
      example: 'http://ns.example.com/epcis',
    });
    expect(lines).toContain('{http://ns.example.com/epcis}gs1ES=(414)4023333000000');
    expect(lines.indexOf('readPoint', lines.indexOf('ilmd'))).toBeGreaterThan(lines.indexOf('ilmd'));
  });
});
