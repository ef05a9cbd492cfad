import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount } from '../factories/accounts';
import { finishedJob } from '../factories/epcis';
import { apiUrl, client } from '../helpers/http';
import {
  digitalLinkPath,
  epcisQueryInterfaceUrl,
  parametersOf,
  productsOf,
  queryEvents,
  resolveMasterData,
} from '../helpers/opentraceability';

/**
 * GDST's own XML documents (test/fixtures/gdst/README.md): the EPCIS 2.0 query documents of
 * OpenTraceability's test server and the EPCIS 1.2 documents of its tests, each captured as it is and its
 * every product resolved as GDST's client resolves it.
 */
const SAMPLES = [
  ['testserver_importer.xml', '2.0'],
  ['testserver_primary-processor.xml', '2.0'],
  ['testserver_secondary-processor.xml', '2.0'],
  ['gdst_extensions_01.xml', '1.2'],
  ['gdst_extensions_02.xml', '1.2'],
  ['gdst_extensions_03.xml', '1.2'],
] as const;

const EVENT_ELEMENT = /<(ObjectEvent|AggregationEvent|TransactionEvent|TransformationEvent|AssociationEvent)[\s>]/g;

type Event = Record<string, unknown>;
const eventsOf = (body: { epcisBody: { queryResults: { resultsBody: { eventList: Event[] } } } }): Event[] =>
  body.epcisBody.queryResults.resultsBody.eventList;

describe('GDST’s XML sample documents', () => {
  it.each(SAMPLES)(
    '%s (EPCIS %s) is captured whole; each product it names resolves, and the master data of its query’s answer',
    async (file) => {
      const xml = readFileSync(join(__dirname, '../fixtures/gdst', file), 'utf8');
      const account = await createAccount(`gdst-xml-${file.replace(/\W/g, '-')}`);
      const api = client(account.key);
      const accepted = await api.post('/epcis/capture', xml, { 'Content-Type': 'application/xml' });
      expect({ status: accepted.status, body: accepted.status === 202 ? undefined : accepted.body }).toEqual({
        status: 202,
        body: undefined,
      });
      const job = await finishedJob(account.key, accepted.headers.get('location')!);
      expect(job).toMatchObject({ success: true, errors: [] });

      const events = eventsOf((await api.get('/epcis/events?perPage=1000')).body);
      expect(events).toHaveLength(xml.match(EVENT_ELEMENT)!.length);
      const epcs = [...new Set(events.flatMap((event) => productsOf(event).map((product) => product.epc)))];
      expect(epcs.length).toBeGreaterThan(0);
      const resolved: Record<string, string | undefined> = {};
      for (const path of epcs.map(digitalLinkPath)) resolved[path] = await epcisQueryInterfaceUrl(account.key, path);
      expect(resolved).toEqual(Object.fromEntries(Object.keys(resolved).map((path) => [path, `${apiUrl()}/epcis/`])));

      // OpenTraceability's queries (the classes, then the other EPCs: one query ANDs its parameters) in each
      // format, and its master data resolver over their answers.
      const { MATCH_anyEPCClass, MATCH_anyEPC } = parametersOf(epcs);
      for (const format of ['JSON 2.0', 'XML 2.0', 'XML 1.2'] as const) {
        const queried = await Promise.all(
          [{ MATCH_anyEPCClass }, { MATCH_anyEPC }]
            .filter((parameters) => Object.values(parameters)[0])
            .map((parameters) => queryEvents(account.key, `${apiUrl()}/epcis/`, parameters, format)),
        );
        const answered = new Map(queried.flatMap((q) => q.events).map((event) => [event.eventID, event]));
        expect({ format, errors: queried.flatMap((q) => q.errors), events: answered.size }).toEqual({
          format,
          errors: [],
          events: events.length,
        });
        const masterData = await resolveMasterData(account.key, [...answered.values()], { gdst: true });
        expect(masterData.errors).toEqual([]);
        expect(masterData.requests.filter((r) => r.status !== 200)).toEqual([]);
      }
    },
  );

  it('a header out of its schema’s order refuses nothing, but an event that breaks GS1’s XSD still refuses the document', async () => {
    const xml = readFileSync(join(__dirname, '../fixtures/gdst/testserver_importer.xml'), 'utf8');
    const broken = xml.replace(/<eventTime>/, '<eventTime>yesterday ');
    expect(broken).not.toBe(xml);
    const account = await createAccount('gdst-xml-broken');
    const refused = await client(account.key).post('/epcis/capture', broken, { 'Content-Type': 'application/xml' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('epcis-invalid-xml');
    expect(Object.keys(refused.body.errors).some((pointer) => pointer.includes('eventTime'))).toBe(true);
  });
});
