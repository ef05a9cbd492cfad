import { eventHashId } from '../../domain/epcis/event-hash';
import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, eventIdOf, finishedJob, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { sql } from '../helpers/db';
import { fixture } from '../helpers/epcis-xml';
import { client } from '../helpers/http';

type Event = Record<string, unknown> & { eventID?: string };
const eventsOf = (body: { epcisBody: { queryResults: { resultsBody: { eventList: Event[] } } } }): Event[] =>
  body.epcisBody.queryResults.resultsBody.eventList;
const HASH_ID = /^ni:\/\/\/sha-256;[0-9a-f]{64}\?ver=CBV2\.0$/;

describe('EPCIS: CBV 2.0 event hash ids', () => {
  let account: TestAccount;
  const ids = gs1Ids();
  const api = () => client(account.key);

  beforeAll(async () => {
    account = await createAccount('epcis-hash');
  });

  it('an event captured without an eventID gets its hash id as its id, and is found by it', async () => {
    const event = objectEvent({
      eventID: null,
      quantityList: [{ epcClass: ids.lgtin(lotOf()), quantity: 7, uom: 'KGM' }],
      readPoint: ids.sgln(),
    });
    expect(await capture(account.key, epcisDocument([event]))).toMatchObject({ success: true });
    const hash = eventHashId(event);
    expect(hash).toMatch(HASH_ID);
    const found = await api().get(`/epcis/events/${encodeURIComponent(hash)}`, {
      'GS1-EPC-Format': 'Never_Translates',
    });
    expect(found.status).toBe(200);
    expect(eventsOf(found.body)).toEqual([{ ...event, eventID: hash, recordTime: expect.any(String) }]);
  });

  it('EQ_eventID finds an event captured with an eventID of its own by its hash id, whichever spelling it came in', async () => {
    const lot = lotOf();
    const event = objectEvent({
      action: 'OBSERVE',
      bizStep: 'shipping',
      quantityList: [{ epcClass: ids.lgtin(lot), quantity: 3, uom: 'KGM' }],
      readPoint: ids.sgln(),
    });
    expect(await capture(account.key, epcisDocument([event]))).toMatchObject({ success: true });
    // The same event as Digital Links and CBV URIs (another client's spelling) has the same hash id.
    const respelled = {
      ...event,
      bizStep: 'https://ref.gs1.org/cbv/BizStep-shipping',
      quantityList: [{ epcClass: `https://id.gs1.org/01/${ids.gtin}/10/${lot}`, quantity: 3, uom: 'KGM' }],
      readPoint: { id: `https://id.gs1.org/414/${ids.gln}` },
    };
    const hash = eventHashId(respelled);
    expect(hash).toBe(eventHashId(event));
    const found = await api().get(`/epcis/events?EQ_eventID=${encodeURIComponent(hash)}`);
    expect(eventsOf(found.body).map((e) => e.eventID)).toEqual([event.eventID]);
  });

  it('the same event sent again under another eventID is a duplicate: refused under rollback, left out and reported under proceed', async () => {
    const lot = lotOf();
    const first = objectEvent({
      quantityList: [{ epcClass: ids.lgtin(lot), quantity: 9, uom: 'KGM' }],
      readPoint: ids.sgln(),
    });
    expect(await capture(account.key, epcisDocument([first]))).toMatchObject({ success: true });
    const again = { ...first, eventID: eventIdOf() };
    const other = objectEvent({
      quantityList: [{ epcClass: ids.lgtin(lotOf()), quantity: 1, uom: 'KGM' }],
      readPoint: ids.sgln(),
    });
    const { rows: before } = await sql().query('SELECT count(*) FROM events WHERE account_id = $1', [account.id]);
    const refused = await api().post('/epcis/capture', epcisDocument([other, again]));
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(['/epcisBody/eventList/1']);
    expect(refused.body.detail).toContain(eventHashId(first));
    const { rows: after } = await sql().query('SELECT count(*) FROM events WHERE account_id = $1', [account.id]);
    expect(after).toEqual(before);

    const job = await capture(account.key, epcisDocument([other, again]), { 'GS1-Capture-Error-Behaviour': 'proceed' });
    expect(job).toMatchObject({
      success: false,
      errors: [
        expect.objectContaining({
          eventID: again.eventID,
          title: 'The event was refused.',
          code: 'DuplicateEventId',
          field: 'eventID',
          detail: expect.stringContaining('duplicate'),
        }),
      ],
    });
    const stored = await api().get(
      `/epcis/events?EQ_eventID=${encodeURIComponent(other.eventID as string)}|${encodeURIComponent(again.eventID)}`,
    );
    expect(eventsOf(stored.body).map((e) => e.eventID)).toEqual([other.eventID]);
  });

  it('GS1’s transformation event with another cbvmda:netWeight, or another readPoint extension, is another event: captured, not refused as a duplicate', async () => {
    const own = await createAccount('epcis-hash-xml');
    const captureXml = (xml: string) =>
      client(own.key).post('/epcis/capture', xml, { 'Content-Type': 'application/xml' });
    const full = fixture('XML/WithFullCombinationOfFields/transformation_event_all_possible_fields.xml');
    // Without its errorDeclaration: the event itself, not a declaration of it.
    const extensions = fixture('XML/WithExtension/TransformationEvent.xml').replace(
      /<errorDeclaration>[\s\S]*?<\/errorDeclaration>/,
      '',
    );
    for (const [original, changed] of [
      [
        full,
        full.replace(
          'measurementUnitCode="KGM">3.5</cbvmda:netWeight>',
          'measurementUnitCode="KGM">999</cbvmda:netWeight>',
        ),
      ],
      [
        extensions,
        extensions.replace('<example:gs1ES>(414)4023333000000</example:gs1ES>', '<example:gs1ES>other</example:gs1ES>'),
      ],
    ]) {
      expect(changed).not.toBe(original);
      for (const xml of [original, changed]) {
        const accepted = await captureXml(xml);
        expect(accepted.status).toBe(202);
        expect(await finishedJob(own.key, accepted.headers.get('location')!)).toMatchObject({
          success: true,
          errors: [],
        });
      }
      // The same document again is the duplicate.
      const again = await captureXml(changed);
      expect(again.status).toBe(400);
      expect(JSON.stringify(again.body.errors)).toContain('it is a duplicate');
    }
  });
});
