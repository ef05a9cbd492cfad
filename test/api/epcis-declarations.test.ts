import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, eventIdOf, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';
import { timelineOf } from '../helpers/inventory';

type Event = Record<string, unknown> & { eventID: string };
const eventsOf = (body: { epcisBody: { queryResults: { resultsBody: { eventList: Event[] } } } }): Event[] => body.epcisBody.queryResults.resultsBody.eventList;

describe('EPCIS error declarations', () => {
  let account: TestAccount;
  const ids = gs1Ids();
  const lot = lotOf();
  const product = `https://id.gs1.org/01/${ids.gtin}`;
  const location = `https://id.gs1.org/414/${ids.gln}`;
  const wrong = objectEvent({ quantityList: [{ epcClass: ids.lgtin(lot), quantity: 100, uom: 'KGM' }], readPoint: ids.sgln() });
  const shipped = objectEvent({ action: 'OBSERVE', bizStep: 'shipping', eventTime: '2024-03-02T10:00:00.000-05:00', quantityList: [{ epcClass: ids.lgtin(lot), quantity: 30, uom: 'KGM' }], readPoint: ids.sgln() });
  const corrective = objectEvent({ quantityList: [{ epcClass: ids.lgtin(lot), quantity: 90, uom: 'KGM' }], readPoint: ids.sgln() });
  const errorDeclaration = { declarationTime: '2024-03-03T09:00:00.000Z', reason: 'incorrect_data', correctiveEventIDs: [corrective.eventID] };

  beforeAll(async () => {
    account = await createAccount('epcis-declare');
    expect((await capture(account.key, epcisDocument([wrong, shipped]))).success).toBe(true);
    const job = await capture(account.key, epcisDocument([{ ...wrong, errorDeclaration }, corrective]));
    expect(job).toMatchObject({ success: true, errors: [] });
  });

  it('marks the declared event: it comes back with its errorDeclaration, and the query parameters find it', async () => {
    const api = client(account.key);
    const one = await api.get(`/epcis/events/${encodeURIComponent(wrong.eventID as string)}`, { 'GS1-EPC-Format': 'Never_Translates' });
    expect(eventsOf(one.body)).toEqual([{ ...wrong, errorDeclaration, recordTime: expect.any(String) }]);
    const declared = await api.get('/epcis/events?EXISTS_errorDeclaration=true');
    expect(eventsOf(declared.body).map((e) => e.eventID)).toEqual([wrong.eventID]);
    const byCorrective = await api.get(`/epcis/events?EQ_correctiveEventID=${encodeURIComponent(corrective.eventID as string)}`);
    expect(eventsOf(byCorrective.body).map((e) => e.eventID)).toEqual([wrong.eventID]);
    const byReason = await api.get('/epcis/events?EQ_errorReason=incorrect_data');
    expect(eventsOf(byReason.body).map((e) => e.eventID)).toEqual([wrong.eventID]);
    // The declaration is no event of its own: the account's events are the three captured ones.
    const all = await api.get('/epcis/events');
    expect(eventsOf(all.body).map((e) => e.eventID)).toEqual([wrong.eventID, shipped.eventID, corrective.eventID]);
  });

  it('reverses the declared event’s inventory at its own time: the timeline reads as if it had not happened', async () => {
    expect(await timelineOf(account.id, product, lot, location)).toEqual([
      { eventTime: '2024-03-01T15:00:00Z', delta: '100', balance: '100', available: '0' },
      { eventTime: '2024-03-01T15:00:00Z', delta: '-100', balance: '0', available: '0' },
      { eventTime: '2024-03-01T15:00:00Z', delta: '90', balance: '90', available: '60' },
      { eventTime: '2024-03-02T15:00:00Z', delta: '-30', balance: '60', available: '60' },
    ]);
  });

  it('refuses a second declaration of the same event, and one of an event the account does not have; nothing is stored', async () => {
    const { rows: before } = await sql().query('SELECT count(*) FROM events WHERE account_id = $1', [account.id]);
    const again = await client(account.key).post('/epcis/capture', epcisDocument([{ ...wrong, errorDeclaration }]));
    expect(again.status).toBe(400);
    expect(Object.keys(again.body.errors)).toEqual(['/epcisBody/eventList/0/errorDeclaration']);
    const unknown = await client(account.key).post('/epcis/capture', epcisDocument([{ ...objectEvent({ eventID: eventIdOf() }), errorDeclaration }]));
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.errors)).toEqual(['/epcisBody/eventList/0/eventID']);
    const other = await createAccount('epcis-declare-other');
    const theirs = await client(other.key).post('/epcis/capture', epcisDocument([{ ...shipped, errorDeclaration }]));
    expect(theirs.status).toBe(400);
    const { rows: after } = await sql().query('SELECT count(*) FROM events WHERE account_id = $1', [account.id]);
    expect(after).toEqual(before);
  });

  it('an event recorded through /Integration/Events can be declared erroneous by its urn:uuid eventID', async () => {
    const native = await client(account.key).post('/Integration/Events', {
      Events: [
        {
          $type: 'commission',
          Id: `NATIVE-${lot}`,
          Location: { Id: location },
          EventTime: '2024-03-05T10:00:00Z',
          EventTimeZone: '+00:00',
          ProductInstances: [{ Quantity: 5, LotSerial: lot, Product: { Id: product } }],
        },
      ],
    });
    expect(native.status).toBe(200);
    const eventID = `urn:uuid:${native.body.result[0].id}`;
    const asEpcis = eventsOf((await client(account.key).get(`/epcis/events/${encodeURIComponent(eventID)}`)).body)[0];
    const { recordTime: _recordTime, ...sentAgain } = asEpcis as Record<string, unknown>;
    const job = await capture(account.key, epcisDocument([{ ...sentAgain, errorDeclaration: { declarationTime: '2024-03-06T00:00:00Z', reason: 'did_not_occur' } }]));
    expect(job.success).toBe(true);
    const timeline = await timelineOf(account.id, product, lot, location);
    expect(timeline.slice(-2).map((r) => [r.delta, r.available])).toEqual([
      ['5', '60'],
      ['-5', '60'],
    ]);
  });
});
