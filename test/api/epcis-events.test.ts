import { gs1SchemaIssues } from '../../domain/epcis/json-schema';
import { createAccount, type TestAccount } from '../factories/accounts';
import {
  EPCIS_CONTEXT,
  EXAMPLE_NAMESPACE,
  capture,
  epcisDocument,
  eventIdOf,
  everyKindDocument,
  gs1Ids,
  lotOf,
  objectEvent,
} from '../factories/epcis';
import { commission, instance, location, ship } from '../factories/events';
import { sql } from '../helpers/db';
import { client, type Response } from '../helpers/http';

type Event = Record<string, unknown> & { eventID?: string };
interface QueryDocument {
  '@context': unknown[];
  type: string;
  epcisBody: { queryResults: { queryName: string; resultsBody: { eventList: Event[] } } };
}

const eventsOf = (body: QueryDocument): Event[] => body.epcisBody.queryResults.resultsBody.eventList;
const asStored = (event: Event) => ({ ...event, recordTime: expect.stringMatching(/Z$/) });
/** GET /epcis/events with `params` is GS1's QueryParameterException, naming `pointer` alone (by default the first parameter). */
async function refusedQuery(key: string, params: string, pointer = `/${params.split('=')[0]}`) {
  const refused = await client(key).get(`/epcis/events?${params}`);
  expect({ params, status: refused.status, type: refused.body.type }).toEqual({
    params,
    status: 400,
    type: 'epcisException:QueryParameterException',
  });
  expect(Object.keys(refused.body.errors)).toEqual([pointer]);
}

/** Identifiers as captured: without the header they are answered as Digital Links (GS1's default). */
const AS_CAPTURED = { 'GS1-EPC-Format': 'Never_Translates' };

describe('EPCIS events: captured documents come back by id and by query', () => {
  let account: TestAccount;
  let kinds: ReturnType<typeof everyKindDocument>;
  const api = () => client(account.key);
  const query = async (params: string) => {
    const response = await api().get<QueryDocument>(`/epcis/events?${params}`, AS_CAPTURED);
    expect({ params, status: response.status, body: response.status === 200 ? null : response.body }).toEqual({
      params,
      status: 200,
      body: null,
    });
    expect(gs1SchemaIssues(response.body)).toEqual([]);
    return eventsOf(response.body);
  };

  beforeAll(async () => {
    account = await createAccount('epcis-events');
    kinds = everyKindDocument();
    const job = await capture(account.key, kinds.document);
    expect(job).toMatchObject({ success: true, errors: [] });
  });

  it('every event type with every optional field comes back by its eventID exactly as sent, in an EPCISQueryDocument valid against GS1’s schema', async () => {
    for (const [name, event] of Object.entries(kinds.events) as [string, Event][]) {
      if (!event.eventID) continue;
      const response = await api().get<QueryDocument>(
        `/epcis/events/${encodeURIComponent(event.eventID)}`,
        AS_CAPTURED,
      );
      expect({ name, status: response.status }).toEqual({ name, status: 200 });
      expect(gs1SchemaIssues(response.body)).toEqual([]);
      expect(response.body.type).toBe('EPCISQueryDocument');
      expect(eventsOf(response.body)).toEqual([asStored(event)]);
    }
    const commission = await api().get<QueryDocument>(
      `/epcis/events/${encodeURIComponent(kinds.events.commission.eventID)}`,
    );
    // The extension's namespace comes with it.
    expect(commission.body['@context']).toEqual([...EPCIS_CONTEXT, EXAMPLE_NAMESPACE]);
  });

  it('an event sent without an eventID gets its CBV 2.0 hash id as its eventID and is found by it', async () => {
    const [sensor] = await query('EQ_bizStep=inspecting');
    expect(sensor).toEqual(
      asStored({
        ...kinds.events.sensor,
        eventID: expect.stringMatching(/^ni:\/\/\/sha-256;[0-9a-f]{64}\?ver=CBV2\.0$/),
      }),
    );
    const again = await query(`EQ_eventID=${encodeURIComponent(sensor.eventID!)}`);
    expect(again).toEqual([sensor]);
  });

  it('filters by type, action, bizStep, disposition, locations and times', async () => {
    const ids = (events: Event[]) => events.map((e) => e.eventID);
    const { events, where, ids: gs1 } = kinds;
    expect(ids(await query('eventType=AggregationEvent|AssociationEvent'))).toEqual([
      events.aggregation.eventID,
      events.association.eventID,
    ]);
    expect(ids(await query('eventType=ObjectEvent&EQ_action=ADD'))).toEqual([events.commission.eventID]);
    expect(ids(await query('EQ_bizStep=packing|assembling'))).toEqual([
      events.aggregation.eventID,
      events.association.eventID,
    ]);
    expect(ids(await query('EQ_disposition=in_progress'))).toEqual([events.aggregation.eventID]);
    // The business location in either form: captured as an SGLN URN, asked for as a Digital Link.
    expect(ids(await query(`EQ_bizLocation=${encodeURIComponent(`https://id.gs1.org/414/${gs1.gln}`)}`))).toEqual([
      events.commission.eventID,
      events.transformation.eventID,
    ]);
    expect((await query(`EQ_readPoint=${encodeURIComponent(where)}`)).length).toBe(5);
    expect(
      ids(
        await query(
          `GE_eventTime=${encodeURIComponent('2024-03-01T12:00:00-05:00')}&LT_eventTime=${encodeURIComponent('2024-03-01T14:00:00-05:00')}`,
        ),
      ),
    ).toEqual([events.aggregation.eventID, events.transformation.eventID]);
    expect((await query(`GE_recordTime=${encodeURIComponent('2000-01-01T00:00:00Z')}`)).length).toBe(6);
    expect(await query(`LT_recordTime=${encodeURIComponent('2000-01-01T00:00:00Z')}`)).toEqual([]);
    expect(
      ids(await query(`EQ_transformationID=${encodeURIComponent(events.transformation.transformationID)}`)),
    ).toEqual([events.transformation.eventID]);
  });

  it('takes the query forms real clients send beside GS1’s: a list parameter repeated, a time whose + was not encoded', async () => {
    const ids = (events: Event[]) => events.map((e) => e.eventID);
    const { events } = kinds;
    // OpenAPI's default form of an array (explode), where GS1's REST binding has pipeDelimited.
    expect(ids(await query('EQ_bizStep=packing&EQ_bizStep=assembling'))).toEqual(
      ids(await query('EQ_bizStep=packing|assembling')),
    );
    expect(ids(await query('eventType=AggregationEvent&eventType=AssociationEvent'))).toEqual([
      events.aggregation.eventID,
      events.association.eventID,
    ]);
    // A + left unencoded in a query string is a space when read: 2024-03-01T18:00:00+01:00 is 12:00 -05:00.
    expect(ids(await query('GE_eventTime=2024-03-01T18:00:00+01:00&LT_eventTime=2024-03-01T20:00:00+01:00'))).toEqual([
      events.aggregation.eventID,
      events.transformation.eventID,
    ]);
    // A parameter of one value sent twice is still a 400 naming it.
    const twice = await api().get('/epcis/events?GE_eventTime=2024-03-01T00:00:00Z&GE_eventTime=2024-03-02T00:00:00Z');
    expect(twice.status).toBe(400);
    expect(JSON.stringify(twice.body)).toContain('GE_eventTime');
  });

  it('MATCH_ parameters find EPCs and classes in either the URN or the Digital Link form', async () => {
    const ids = (events: Event[]) => events.map((e) => (e.bizStep === 'inspecting' ? 'sensor' : e.eventID));
    const { events, ids: gs1, lot, outputLot } = kinds;
    expect(ids(await query(`MATCH_epc=${encodeURIComponent(gs1.sgtin('S1'))}`))).toEqual([
      events.commission.eventID,
      'sensor',
      events.transaction.eventID,
    ]);
    expect(ids(await query(`MATCH_epc=${encodeURIComponent(`https://id.gs1.org/01/${gs1.gtin}/21/S2`)}`))).toEqual([
      events.commission.eventID,
      events.aggregation.eventID,
    ]);
    expect(ids(await query(`MATCH_parentID=${encodeURIComponent(gs1.sscc)}`))).toEqual([events.aggregation.eventID]);
    expect(
      ids(
        await query(
          `MATCH_anyEPC=${encodeURIComponent(gs1.sscc)}|${encodeURIComponent('urn:epc:id:giai:4000001.12345')}`,
        ),
      ),
    ).toEqual([events.aggregation.eventID, events.association.eventID]);
    expect(ids(await query(`MATCH_epcClass=${encodeURIComponent(gs1.lgtin(lot))}`))).toEqual([
      events.commission.eventID,
      events.aggregation.eventID,
    ]);
    expect(
      ids(await query(`MATCH_inputEPCClass=${encodeURIComponent(`https://id.gs1.org/01/${gs1.gtin}/10/${lot}`)}`)),
    ).toEqual([events.transformation.eventID]);
    expect(ids(await query(`MATCH_anyEPCClass=${encodeURIComponent(gs1.lgtin(outputLot))}`))).toEqual([
      events.transformation.eventID,
    ]);
    expect(await query(`MATCH_epc=${encodeURIComponent(gs1.sgtin('nothing'))}`)).toEqual([]);
  });

  it('MATCH_ parameters take EPC pattern URIs, by GTIN or company prefix; an unreadable pattern is a 400', async () => {
    const ids = (events: Event[]) => events.map((e) => (e.bizStep === 'inspecting' ? 'sensor' : e.eventID));
    const { events, ids: gs1 } = kinds;
    const withSerials = [events.commission.eventID, 'sensor', events.aggregation.eventID, events.transaction.eventID];
    expect(ids(await query(`MATCH_epc=${encodeURIComponent(gs1.gtinClass)}`))).toEqual(withSerials);
    expect(ids(await query(`MATCH_epc=${encodeURIComponent(`urn:epc:idpat:sgtin:${gs1.companyPrefix}.*.*`)}`))).toEqual(
      withSerials,
    );
    expect(ids(await query(`MATCH_epcClass=${encodeURIComponent(gs1.gtinClass)}`))).toEqual([
      events.commission.eventID,
      events.aggregation.eventID,
    ]);
    expect(
      ids(await query(`MATCH_anyEPCClass=${encodeURIComponent(`urn:epc:idpat:sgtin:${gs1.companyPrefix}.*.*`)}`)),
    ).toEqual([events.commission.eventID, events.aggregation.eventID, events.transformation.eventID]);
    expect(
      ids(await query(`MATCH_parentID=${encodeURIComponent(`urn:epc:idpat:sscc:${gs1.companyPrefix}.*`)}`)),
    ).toEqual([events.aggregation.eventID]);
    expect(ids(await query(`MATCH_anyEPC=${encodeURIComponent('urn:epc:idpat:giai:4000001.*')}`))).toEqual([
      events.association.eventID,
    ]);
    // A pattern and an identifier together: either matches.
    expect(
      ids(
        await query(
          `MATCH_anyEPC=${encodeURIComponent('urn:epc:idpat:grai:4012345.55555.*')}|${encodeURIComponent(gs1.sscc)}`,
        ),
      ),
    ).toEqual([events.aggregation.eventID, events.association.eventID]);
    expect(await query(`MATCH_epc=${encodeURIComponent('urn:epc:idpat:sgtin:1234567.*.*')}`)).toEqual([]);
    const bad = await api().get(`/epcis/events?MATCH_epc=${encodeURIComponent('urn:epc:idpat:sgtin:ABC')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.type).toBe('epcisException:QueryParameterException');
    expect(Object.keys(bad.body.errors)).toEqual(['/MATCH_epc']);
  });

  it('filters by quantity, persistent disposition and location with descendants', async () => {
    const ids = (events: Event[]) => events.map((e) => e.eventID);
    const { events, where, ids: gs1 } = kinds;
    // Quantities: commission 100, aggregation 10 (child), transformation 20 in and 15 out.
    expect(ids(await query('EQ_quantity=100'))).toEqual([events.commission.eventID]);
    expect(ids(await query('GT_quantity=15'))).toEqual([events.commission.eventID, events.transformation.eventID]);
    expect(ids(await query('GE_quantity=20'))).toEqual([events.commission.eventID, events.transformation.eventID]);
    expect(ids(await query('LT_quantity=15'))).toEqual([events.aggregation.eventID]);
    expect(ids(await query('LE_quantity=15'))).toEqual([events.aggregation.eventID, events.transformation.eventID]);
    expect(ids(await query('GT_quantity=10&LT_quantity=20'))).toEqual([events.transformation.eventID]);
    expect(await query('EQ_quantity=10.5')).toEqual([]);
    // In a unit (all of them in KGM): a mass in any of GS1's units of mass, a unit of another kind never.
    expect(ids(await query('GE_quantity_KGM=20'))).toEqual([events.commission.eventID, events.transformation.eventID]);
    expect(ids(await query('GT_quantity_LBR=40'))).toEqual([events.commission.eventID, events.transformation.eventID]);
    expect(ids(await query('LT_quantity_grm=12000'))).toEqual([events.aggregation.eventID]);
    expect(ids(await query('EQ_quantity_KGM=15|10'))).toEqual([
      events.aggregation.eventID,
      events.transformation.eventID,
    ]);
    expect(await query('GT_quantity_LTR=0')).toEqual([]);
    expect(ids(await query('EQ_quantity_TNE=0.1'))).toEqual([events.commission.eventID]);
    // A unit as a partner spelt it (LBS, which capture reads as LBR) is that unit.
    const own = await createAccount('epcis-events-pounds');
    const inPounds = objectEvent({ quantityList: [{ epcClass: gs1.lgtin(kinds.lot), quantity: 2.5, uom: 'LBS' }] });
    expect(await capture(own.key, epcisDocument([inPounds]))).toMatchObject({ success: true });
    const inOunces = await client(own.key).get<QueryDocument>('/epcis/events?EQ_quantity_ONZ=40');
    expect(ids(eventsOf(inOunces.body))).toEqual([inPounds.eventID]);

    expect(ids(await query('EQ_persistentDisposition_set=completeness_verified'))).toEqual([events.commission.eventID]);
    expect(
      ids(
        await query(
          `EQ_persistentDisposition_set=${encodeURIComponent('https://ref.gs1.org/cbv/Disp-completeness_verified')}|needs_replacement`,
        ),
      ),
    ).toEqual([events.commission.eventID]);
    expect(ids(await query('EQ_persistentDisposition_unset=completeness_inferred'))).toEqual([
      events.commission.eventID,
    ]);
    expect(await query('EQ_persistentDisposition_unset=completeness_verified')).toEqual([]);

    // No location hierarchy is kept: a location's events with descendants are its own.
    expect((await query(`WD_readPoint=${encodeURIComponent(where)}`)).length).toBe(5);
    expect(ids(await query(`WD_bizLocation=${encodeURIComponent(`https://id.gs1.org/414/${gs1.gln}`)}`))).toEqual([
      events.commission.eventID,
      events.transformation.eventID,
    ]);
    expect(await query(`WD_bizLocation=${encodeURIComponent(gs1.sgln('7'))}`)).toEqual([]);

    for (const param of [
      'EQ_quantity=ten',
      'GT_quantity=',
      'LE_quantity=1e3',
      'GT_quantity_KGM=heavy',
      'EQ_quantity_KGM=1|x',
    ])
      await refusedQuery(account.key, param);
  });

  it('pages with perPage and a Link to the next page', async () => {
    const first = await api().get<QueryDocument>('/epcis/events?perPage=4');
    expect(eventsOf(first.body)).toHaveLength(4);
    const link = first.headers.get('link')!;
    expect(link).toMatch(/^<\/epcis\/events\?perPage=4&nextPageToken=[^>]+>; rel="next"$/);
    const second = await api().get<QueryDocument>(link.slice(1, link.indexOf('>')));
    expect(eventsOf(second.body)).toHaveLength(2);
    expect(second.headers.get('link')).toBeNull();
  });

  it('orders by eventTime or recordTime either way across pages, and takes eventCountLimit and maxEventCount', async () => {
    const own = await createAccount('epcis-events-order');
    // Captured one by one: recordTime follows this order, eventTime another.
    const recorded: Event[] = [];
    for (const day of [5, 1, 3, 2, 4]) {
      const event = objectEvent({ eventTime: `2024-03-0${day}T10:00:00.000Z` });
      await capture(own.key, epcisDocument([event]));
      recorded.push(event);
    }
    const byEventTime = [...recorded].sort((a, b) => String(a.eventTime).localeCompare(String(b.eventTime)));
    const ids = (events: Event[]) => events.map((event) => event.eventID);
    const every = async (params: string) => {
      const events: Event[] = [];
      let link: string | null = `</epcis/events?${params}>`;
      while (link) {
        const response: Response<QueryDocument> = await client(own.key).get<QueryDocument>(
          link.slice(1, link.indexOf('>')),
        );
        expect({ params, status: response.status }).toEqual({ params, status: 200 });
        events.push(...eventsOf(response.body));
        link = response.headers.get('link');
      }
      return ids(events);
    };
    expect(await every('orderBy=eventTime&orderDirection=ASC&perPage=2')).toEqual(ids(byEventTime));
    // DESC unless said, as GS1 says; the direction's letter case as a client writes it.
    expect(await every('orderBy=eventTime&perPage=2')).toEqual(ids(byEventTime).reverse());
    expect(await every('orderBy=recordTime&orderDirection=asc&perPage=3')).toEqual(ids(recorded));
    expect(await every('orderBy=recordTime&orderDirection=DESC&perPage=2')).toEqual(ids(recorded).reverse());
    // The first N in that order, however many pages they take.
    expect(await every('orderBy=eventTime&eventCountLimit=3&perPage=2')).toEqual(
      ids(byEventTime).reverse().slice(0, 3),
    );
    expect(await every('orderBy=eventTime&orderDirection=ASC&eventCountLimit=2')).toEqual(ids(byEventTime).slice(0, 2));
    expect(await every('maxEventCount=5&perPage=2')).toEqual(ids(recorded));

    const tooLarge = await client(own.key).get('/epcis/events?maxEventCount=4');
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({
      type: 'epcisException:QueryTooLargeException',
      code: 'epcis-query-too-large',
    });
    for (const [params, pointer] of [
      ['eventCountLimit=2', '/eventCountLimit'],
      ['orderBy=eventTime&eventCountLimit=2&maxEventCount=3', '/maxEventCount'],
      ['orderBy=example:weight', '/orderBy'],
      ['orderBy=eventTime&orderDirection=UP', '/orderDirection'],
      ['maxEventCount=0', '/maxEventCount'],
    ])
      await refusedQuery(own.key, params, pointer);
    // A page token of one order is no token of another; one changed by hand is a 400, never a 500.
    const first = await client(own.key).get('/epcis/events?orderBy=eventTime&perPage=2');
    const token = new URL(first.headers.get('link')!.slice(1, -'>; rel="next"'.length), 'http://x').searchParams.get(
      'nextPageToken',
    );
    const tampered = (text: string) => Buffer.from(text).toString('base64url');
    for (const params of [
      `perPage=2&nextPageToken=${token}`,
      `orderBy=recordTime&orderDirection=ASC&nextPageToken=${token}`,
      `orderBy=eventTime&nextPageToken=${tampered('eventTime~DESC~1~-999999999999999999~0')}`,
      `orderBy=eventTime&nextPageToken=${tampered('eventTime~DESC~1~9999999999999999999~0')}`,
    ]) {
      const refused = await client(own.key).get(`/epcis/events?${params}`);
      expect({ params, status: refused.status }).toEqual({ params, status: 400 });
    }

    // Events of one eventTime across a page boundary come once each, in the order they were recorded.
    const same = ['packing', 'loading', 'storing'].map((bizStep) =>
      objectEvent({ eventTime: '2024-03-09T10:00:00.000Z', bizStep }),
    );
    await capture(own.key, epcisDocument(same));
    expect(await every('orderBy=eventTime&orderDirection=ASC&perPage=2&GE_eventTime=2024-03-09T00:00:00Z')).toEqual(
      ids(same),
    );
    expect(await every('orderBy=eventTime&perPage=2&GE_eventTime=2024-03-09T00:00:00Z')).toEqual(ids(same).reverse());
  });

  it('EQ_bizTransaction_, EQ_source_ and EQ_destination_ with a type find the entries of that type, the type as a word or a URI', async () => {
    const own = await createAccount('epcis-events-typed');
    const po = 'urn:epcglobal:cbv:bt:0614141073467:PO-4711';
    const owner = 'urn:epc:id:pgln:0614141.00001';
    const ordered = objectEvent({
      extra: {
        bizTransactionList: [{ type: 'po', bizTransaction: po }],
        sourceList: [{ type: 'owning_party', source: owner }],
      },
    });
    const invoiced = objectEvent({
      extra: {
        bizTransactionList: [{ type: 'inv', bizTransaction: po }],
        destinationList: [{ type: 'owning_party', destination: owner }],
      },
    });
    // A location and a party in the other spelling: a GLN as its SGLN URN, a PGLN as its Digital Link.
    const located = objectEvent({
      extra: {
        sourceList: [{ type: 'location', source: 'urn:epc:id:sgln:4012345.00001.0' }],
        destinationList: [{ type: 'owning_party', destination: 'https://id.gs1.org/417/4012345000016' }],
      },
    });
    // A Digital Link on a brand's own host (with a path before GS1's), which GS1 allows.
    const branded = objectEvent({
      extra: {
        sourceList: [
          { type: 'location', source: 'https://brand.example/dl/414/4012345000023/254/7' },
          { type: 'possessing_party', source: 'https://shop.example/01/09506000134352' },
          { type: 'owning_party', source: 'HTTPS://Brand.example/417/4012345000047' },
        ],
        destinationList: [{ type: 'owning_party', destination: 'https://brand.example/417/4012345000030' }],
        bizTransactionList: [{ type: 'po', bizTransaction: 'https://erp.example/253/4012345000009123' }],
      },
    });
    await capture(own.key, epcisDocument([ordered, invoiced, located, branded]));
    const lot = lotOf();
    const stored = await client(own.key).post('/Integration/Events', {
      Events: [
        commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('COD', lot, 10)),
        ship({ location: 'DOCK', time: '2024-03-02T10:00:00Z' }, instance('COD', lot, 4)),
        {
          ...ship({ location: 'DOCK', time: '2024-03-03T10:00:00Z', id: `SHIP-GLN-${lot}` }, instance('COD', lot, 1)),
          DestinationLocation: { Id: 'GLN-DOCK', Details: { ...location('GLN-DOCK').Details, Gln: '0614141000012' } },
        },
      ],
    });
    expect(stored.status).toBe(200);
    const toGln = stored.body.result.find((r: { externalEventId: string }) => r.externalEventId === `SHIP-GLN-${lot}`);
    const all = eventsOf((await client(own.key).get<QueryDocument>('/epcis/events')).body);
    // Ours: one destination, of type location, named as GET /epcis/events names it.
    const destinationOf = (event: Event) => (event.destinationList as { type: string; destination: string }[])?.[0];
    const shipped = all.find((event) => destinationOf(event)?.destination.startsWith('urn:gdst:'))!;
    const { destination } = destinationOf(shipped);
    const found = async (params: string) => {
      const response = await client(own.key).get<QueryDocument>(`/epcis/events?${params}`, AS_CAPTURED);
      expect({ params, status: response.status }).toEqual({ params, status: 200 });
      return eventsOf(response.body).map((event) => event.eventID);
    };
    expect(await found(`EQ_bizTransaction_po=${encodeURIComponent(po)}`)).toEqual([ordered.eventID]);
    expect(await found(`EQ_bizTransaction_urn:epcglobal:cbv:btt:inv=${encodeURIComponent(po)}`)).toEqual([
      invoiced.eventID,
    ]);
    expect(await found(`EQ_bizTransaction_po=${encodeURIComponent(`${po}-other`)}`)).toEqual([]);
    expect(await found(`EQ_source_owning_party=${encodeURIComponent(owner)}`)).toEqual([ordered.eventID]);
    expect(await found(`EQ_destination_https://ref.gs1.org/cbv/SDT-owning_party=${encodeURIComponent(owner)}`)).toEqual(
      [invoiced.eventID],
    );
    expect(await found(`EQ_destination_location=${encodeURIComponent(destination)}`)).toEqual([shipped.eventID]);
    // A GLN location is named by its Digital Link; its SGLN is the same location.
    expect(await found('EQ_destination_location=urn:epc:id:sgln:0614141.00001.0')).toEqual([`urn:uuid:${toGln.id}`]);
    // A GLN or PGLN is found in whichever spelling the event and the query used.
    expect(await found(`EQ_source_location=${encodeURIComponent('https://id.gs1.org/414/4012345000016')}`)).toEqual([
      located.eventID,
    ]);
    expect(await found('EQ_source_location=urn:epc:id:sgln:4012345.00001.0')).toEqual([located.eventID]);
    expect(await found('EQ_destination_owning_party=urn:epc:id:pgln:4012345.00001')).toEqual([located.eventID]);
    expect(await found('EQ_source_location=urn:epc:id:sgln:4012345.00002.7')).toEqual([branded.eventID]);
    expect(await found(`EQ_source_location=${encodeURIComponent('https://id.gs1.org/414/4012345000023')}`)).toEqual([]);
    expect(await found('EQ_destination_owning_party=urn:epc:id:pgln:4012345.00003')).toEqual([branded.eventID]);
    expect(
      await found(`EQ_destination_owning_party=${encodeURIComponent('https://other.example/x/417/4012345000030')}`),
    ).toEqual([branded.eventID]);
    expect(await found('EQ_source_owning_party=urn:epc:id:pgln:4012345.00004')).toEqual([branded.eventID]);
    // Only a GLN or PGLN is the same on any host: other identifiers, and business transactions, as sent.
    const q = encodeURIComponent;
    expect(await found(`EQ_source_possessing_party=${q('https://id.gs1.org/01/09506000134352')}`)).toEqual([]);
    expect(await found(`EQ_bizTransaction_po=${q('https://id.gs1.org/253/4012345000009123')}`)).toEqual([]);
    expect(await found(`EQ_bizTransaction_po=${q('https://erp.example/253/4012345000009123')}`)).toEqual([
      branded.eventID,
    ]);
    expect(await found(`EQ_source_owning_party=${encodeURIComponent('https://id.gs1.org/417/0614141000012')}`)).toEqual(
      [ordered.eventID],
    );
    // A named query keeps them.
    const named = await client(own.key).post('/epcis/queries', {
      name: `typed-${lot}`,
      query: { EQ_source_owning_party: [owner], EQ_bizTransaction_po: po },
    });
    expect(named.status).toBe(201);
    const run = await client(own.key).get<QueryDocument>(`/epcis/queries/typed-${lot}/events`);
    expect(eventsOf(run.body).map((event) => event.eventID)).toEqual([ordered.eventID]);
    const blank = await client(own.key).get('/epcis/events?EQ_source_owning_party=%7C');
    expect(blank.status).toBe(400);
    expect(Object.keys(blank.body.errors)).toEqual(['/EQ_source_owning_party']);
  });

  it('GS1-EPC-Format Always_GS1_Digital_Link answers EPC URNs as Digital Links', async () => {
    const { events, ids: gs1, lot } = kinds;
    const response = await api().get<QueryDocument>(`/epcis/events/${encodeURIComponent(events.commission.eventID)}`, {
      'GS1-EPC-Format': 'Always_GS1_Digital_Link',
    });
    const [event] = eventsOf(response.body);
    expect(event.epcList).toEqual([
      `https://id.gs1.org/01/${gs1.gtin}/21/S1`,
      `https://id.gs1.org/01/${gs1.gtin}/21/S2`,
    ]);
    expect(event.quantityList).toEqual([
      { epcClass: `https://id.gs1.org/01/${gs1.gtin}/10/${lot}`, quantity: 100, uom: 'KGM' },
    ]);
    expect(event.bizLocation).toEqual({ id: `https://id.gs1.org/414/${gs1.gln}` });
    expect(response.headers.get('gs1-epc-format')).toBe('Always_GS1_Digital_Link');
  });

  it('GS1-EPC-Format: absent is Always_GS1_Digital_Link; No_Preference answers as captured; Always_EPC_URN turns Digital Links into URNs where the company prefix is known', async () => {
    const { events, ids: gs1, lot } = kinds;
    const get = async (path: string, format?: string) => {
      const response = await api().get<QueryDocument>(path, format ? { 'GS1-EPC-Format': format } : {});
      expect(response.status).toBe(200);
      expect(gs1SchemaIssues(response.body)).toEqual([]);
      return { format: response.headers.get('gs1-epc-format'), events: eventsOf(response.body) };
    };
    const commission = `/epcis/events/${encodeURIComponent(events.commission.eventID)}`;
    const absent = await get(commission);
    expect(absent.format).toBe('Always_GS1_Digital_Link');
    expect(absent.events[0].epcList).toEqual([
      `https://id.gs1.org/01/${gs1.gtin}/21/S1`,
      `https://id.gs1.org/01/${gs1.gtin}/21/S2`,
    ]);
    expect(absent.events[0].quantityList).toEqual([
      { epcClass: `https://id.gs1.org/01/${gs1.gtin}/10/${lot}`, quantity: 100, uom: 'KGM' },
    ]);
    const noPreference = await get(commission, 'No_Preference');
    expect(noPreference).toEqual({ format: 'No_Preference', events: [asStored(events.commission)] });

    // The sensor event was captured with Digital Links only; the company prefix comes from the URNs the account captured for the same company.
    const sensor = await get('/epcis/events?EQ_bizStep=inspecting', 'Always_EPC_URN');
    expect(sensor.format).toBe('Always_EPC_URN');
    expect(sensor.events[0].epcList).toEqual([gs1.sgtin('S1')]);
    expect(sensor.events[0].readPoint).toEqual({ id: gs1.sgln() });
    // URNs stay URNs; a Digital Link of a company no URN names is answered as captured.
    expect((await get(commission, 'Always_EPC_URN')).events).toEqual([asStored(events.commission)]);
    const elsewhere = await createAccount('epcis-format');
    const company = gs1Ids();
    const stranger = objectEvent({
      epcList: [`https://id.gs1.org/01/${company.gtin}/21/X1`],
      readPoint: `https://id.gs1.org/414/${company.gln}`,
    });
    expect((await capture(elsewhere.key, epcisDocument([stranger]))).success).toBe(true);
    const unknown = await client(elsewhere.key).get<QueryDocument>(
      `/epcis/events/${encodeURIComponent(stranger.eventID as string)}`,
      { 'GS1-EPC-Format': 'Always_EPC_URN' },
    );
    expect(eventsOf(unknown.body)[0]).toMatchObject({ epcList: stranger.epcList, readPoint: stranger.readPoint });
  });

  it('an unknown GS1-EPC-Format is a 400 naming it, on every events resource; a bad query parameter is answered first', async () => {
    const { events } = kinds;
    for (const path of [
      '/epcis/events',
      `/epcis/events/${encodeURIComponent(events.commission.eventID)}`,
      '/epcis/eventTypes/ObjectEvent/events',
    ]) {
      const response = await api().get(path, { 'GS1-EPC-Format': 'Always_Morse' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        type: 'epcisException:ValidationException',
        code: 'epcis-invalid-header',
        detail:
          'GS1-EPC-Format must be one of No_Preference, Always_GS1_Digital_Link, Always_EPC_URN, Never_Translates; got "Always_Morse".',
        errors: { '/': ['GS1-EPC-Format "Always_Morse" is not known.'] },
      });
    }
    const both = await api().get('/epcis/events?EQ_colour=red', { 'GS1-EPC-Format': 'Always_Morse' });
    expect(both.body.type).toBe('epcisException:QueryParameterException');
  });

  it('refuses unknown query parameters and bad values with a 400 naming them', async () => {
    const unknown = await api().get('/epcis/events?EQ_colour=red');
    expect(unknown.status).toBe(400);
    expect(unknown.body.type).toBe('epcisException:QueryParameterException');
    expect(Object.keys(unknown.body.errors)).toEqual(['/EQ_colour']);
    const time = await api().get('/epcis/events?GE_eventTime=yesterday');
    expect(time.status).toBe(400);
    expect(time.body.type).toBe('epcisException:QueryParameterException');
    expect(Object.keys(time.body.errors)).toEqual(['/GE_eventTime']);
    const leap = await api().get(`/epcis/events?LT_recordTime=${encodeURIComponent('2016-12-31T23:59:60Z')}`);
    expect(leap.status).toBe(400);
    expect(Object.keys(leap.body.errors)).toEqual(['/LT_recordTime']);
    const token = await api().get('/epcis/events?nextPageToken=nonsense');
    expect(token.status).toBe(400);
    expect(token.body.type).toBe('epcisException:QueryParameterException');
    // A list of no values (a lone separator, blanks) would filter nothing: every event, silently.
    for (const param of ['EQ_bizStep=%7C', 'MATCH_anyEPC=%20%7C%20', 'eventType=+'])
      await refusedQuery(account.key, param);
  });

  it('the top-level resources list what the events name, each with its events', async () => {
    const { events, ids: gs1 } = kinds;
    const member = async (path: string) => {
      const response = await api().get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      expect(response.body).toMatchObject({ type: 'Collection' });
      return response.body.member as string[];
    };
    expect(await member('/epcis/eventTypes')).toEqual([
      'ObjectEvent',
      'AggregationEvent',
      'TransactionEvent',
      'TransformationEvent',
      'AssociationEvent',
    ]);
    expect(await member('/epcis/bizSteps')).toEqual([
      'assembling',
      'commissioning',
      'inspecting',
      'packing',
      'shipping',
    ]);
    expect(await member('/epcis/dispositions')).toEqual(['active', 'in_progress']);
    const location = `https://id.gs1.org/414/${gs1.gln}`;
    expect(await member('/epcis/bizLocations')).toEqual([location]);
    expect(await member('/epcis/readPoints')).toEqual([location]);
    const epcs = await member('/epcis/epcs');
    expect(epcs).toEqual(
      expect.arrayContaining([
        `https://id.gs1.org/01/${gs1.gtin}/21/S1`,
        `https://id.gs1.org/01/${gs1.gtin}/21/S2`,
        'urn:epc:id:giai:4000001.12345',
      ]),
    );
    expect(await member('/epcis/bizSteps?perPage=2')).toEqual(['assembling', 'commissioning']);

    expect(await member('/epcis/bizSteps/packing')).toEqual(['events']);
    const missing = await api().get('/epcis/bizSteps/destroying');
    expect(missing.status).toBe(404);
    const ids = async (path: string) => {
      const response = await api().get<QueryDocument>(path);
      expect(gs1SchemaIssues(response.body)).toEqual([]);
      return eventsOf(response.body).map((e) => (e.bizStep === 'inspecting' ? 'sensor' : e.eventID));
    };
    expect(await ids('/epcis/eventTypes/TransformationEvent/events')).toEqual([events.transformation.eventID]);
    expect(await ids('/epcis/bizSteps/packing/events')).toEqual([events.aggregation.eventID]);
    expect(await ids('/epcis/dispositions/active/events')).toEqual([events.commission.eventID]);
    expect(await ids(`/epcis/bizLocations/${encodeURIComponent(gs1.sgln())}/events`)).toEqual([
      events.commission.eventID,
      events.transformation.eventID,
    ]);
    expect(await ids(`/epcis/readPoints/${encodeURIComponent(location)}/events?eventType=AggregationEvent`)).toEqual([
      events.aggregation.eventID,
    ]);
    expect(await ids(`/epcis/epcs/${encodeURIComponent(gs1.sgtin('S2'))}/events`)).toEqual([
      events.commission.eventID,
      events.aggregation.eventID,
    ]);
  });

  it('pages a top-level resource by the last value listed: a value recorded between pages repeats or hides none', async () => {
    const own = await createAccount('epcis-events-values');
    await capture(
      own.key,
      epcisDocument([objectEvent({ bizStep: 'receiving' }), objectEvent({ bizStep: 'shipping' })]),
    );
    const first = await client(own.key).get('/epcis/bizSteps?perPage=1');
    expect(first.body.member).toEqual(['receiving']);
    // Listed before the values already listed: an offset would answer receiving again, and shipping a page later.
    await capture(own.key, epcisDocument([objectEvent({ bizStep: 'commissioning' })]));
    const link = first.headers.get('link')!;
    const second = await client(own.key).get(link.slice(1, link.indexOf('>')));
    expect(second.body.member).toEqual(['shipping']);
    expect(second.headers.get('link')).toBeNull();
    expect((await client(own.key).get('/epcis/bizSteps?perPage=1&nextPageToken=bm9uZQ')).status).toBe(400);
  });

  it('another account sees none of it', async () => {
    const other = await createAccount('epcis-other');
    const response = await client(other.key).get<QueryDocument>('/epcis/events');
    expect(eventsOf(response.body)).toEqual([]);
    for (const resource of ['bizSteps', 'bizLocations', 'readPoints', 'dispositions', 'epcs']) {
      expect((await client(other.key).get(`/epcis/${resource}`)).body.member).toEqual([]);
    }
    expect(eventsOf((await client(other.key).get<QueryDocument>('/epcis/bizSteps/packing/events')).body)).toEqual([]);
    const one = await client(other.key).get(`/epcis/events/${encodeURIComponent(kinds.events.commission.eventID)}`);
    expect(one.status).toBe(404);
    expect(one.body.type).toBe('epcisException:NoSuchResourceException');
  });
});

describe('POST /epcis/events', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await createAccount('epcis-one');
  });

  it('captures one event through the pipeline and answers 201 with its location', async () => {
    const ids = gs1Ids();
    const event = {
      '@context': EPCIS_CONTEXT,
      ...objectEvent({
        quantityList: [{ epcClass: ids.lgtin(lotOf()), quantity: 3, uom: 'KGM' }],
        readPoint: ids.sgln(),
      }),
    };
    const response = await client(account.key).post('/epcis/events', event, { 'Content-Type': 'application/ld+json' });
    expect(response.status).toBe(201);
    const location = `/epcis/events/${encodeURIComponent(event.eventID as string)}`;
    expect(response.headers.get('location')).toBe(location);
    expect(response.body).toEqual({ eventID: event.eventID, location });
    const stored = await client(account.key).get<QueryDocument>(location, AS_CAPTURED);
    expect(eventsOf(stored.body)).toEqual([asStored(event)]);
    const { rows } = await sql().query(
      'SELECT b.mode FROM events e JOIN batches b ON b.id = e.batch_id WHERE e.account_id = $1 AND e.external_event_id = $2',
      [account.id, event.eventID],
    );
    expect(rows).toEqual([{ mode: 'epcis' }]);

    const again = await client(account.key).post('/epcis/events', event);
    expect(again.status).toBe(400);
    expect(again.body.type).toBe('epcisException:ValidationException');
    expect(again.body.errors).toEqual({ '/eventID': [expect.stringContaining(String(event.eventID))] });
  });

  it('a document or an invalid event is a 400 naming the pointer, and stores nothing', async () => {
    const document = await client(account.key).post('/epcis/events', epcisDocument([objectEvent()]));
    expect(document.status).toBe(400);
    expect(Object.keys(document.body.errors)).toEqual(['/type']);
    const noContext = await client(account.key).post('/epcis/events', {
      ...objectEvent({ eventID: eventIdOf() }),
      action: 'MAYBE',
    });
    expect(noContext.status).toBe(400);
    expect(Object.keys(noContext.body.errors)).toEqual(expect.arrayContaining(['/@context', '/action']));
  });
});
