import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { eventHashId, namespacesOfContext } from '../../domain/epcis/event-hash';
import { sql } from '../helpers/db';
import { fixtureJson } from '../helpers/epcis-xml';
import { client } from '../helpers/http';
import { timelineOf } from '../helpers/inventory';

type Event = Record<string, unknown> & { eventID: string };
const eventsOf = (body: { epcisBody: { queryResults: { resultsBody: { eventList: Event[] } } } }): Event[] =>
  body.epcisBody.queryResults.resultsBody.eventList;

describe('EPCIS error declarations', () => {
  let account: TestAccount;
  const ids = gs1Ids();
  const lot = lotOf();
  const product = `https://id.gs1.org/01/${ids.gtin}`;
  const location = `https://id.gs1.org/414/${ids.gln}`;
  const wrong = objectEvent({
    quantityList: [{ epcClass: ids.lgtin(lot), quantity: 100, uom: 'KGM' }],
    readPoint: ids.sgln(),
  });
  const shipped = objectEvent({
    action: 'OBSERVE',
    bizStep: 'shipping',
    eventTime: '2024-03-02T10:00:00.000-05:00',
    quantityList: [{ epcClass: ids.lgtin(lot), quantity: 30, uom: 'KGM' }],
    readPoint: ids.sgln(),
  });
  const corrective = objectEvent({
    quantityList: [{ epcClass: ids.lgtin(lot), quantity: 90, uom: 'KGM' }],
    readPoint: ids.sgln(),
  });
  const errorDeclaration = {
    declarationTime: '2024-03-03T09:00:00.000Z',
    reason: 'incorrect_data',
    correctiveEventIDs: [corrective.eventID],
  };

  beforeAll(async () => {
    account = await createAccount('epcis-declare');
    expect((await capture(account.key, epcisDocument([wrong, shipped]))).success).toBe(true);
    const job = await capture(account.key, epcisDocument([{ ...wrong, errorDeclaration }, corrective]));
    expect(job).toMatchObject({ success: true, errors: [] });
  });

  it('marks the declared event: it comes back with its errorDeclaration, and the query parameters find it', async () => {
    const api = client(account.key);
    const one = await api.get(`/epcis/events/${encodeURIComponent(wrong.eventID as string)}`, {
      'GS1-EPC-Format': 'Never_Translates',
    });
    expect(eventsOf(one.body)).toEqual([{ ...wrong, errorDeclaration, recordTime: expect.any(String) }]);
    const declared = await api.get('/epcis/events?EXISTS_errorDeclaration=true');
    expect(eventsOf(declared.body).map((e) => e.eventID)).toEqual([wrong.eventID]);
    const byCorrective = await api.get(
      `/epcis/events?EQ_correctiveEventID=${encodeURIComponent(corrective.eventID as string)}`,
    );
    expect(eventsOf(byCorrective.body).map((e) => e.eventID)).toEqual([wrong.eventID]);
    const byReason = await api.get('/epcis/events?EQ_errorReason=incorrect_data');
    expect(eventsOf(byReason.body).map((e) => e.eventID)).toEqual([wrong.eventID]);
    // GS1's GE_ and LT_ of declarationTime (09:00Z), and the GT_ and LE_ real clients send beside them.
    for (const [params, found] of [
      ['GE_errorDeclarationTime=2024-03-03T09:00:00Z', [wrong.eventID]],
      ['GE_errorDeclarationTime=2024-03-03T05:00:01-04:00', []],
      ['LT_errorDeclarationTime=2024-03-03T09:00:00.001Z', [wrong.eventID]],
      ['LT_errorDeclarationTime=2024-03-03T09:00:00Z', []],
      ['GT_errorDeclarationTime=2024-03-03T08:59:59Z&LE_errorDeclarationTime=2024-03-03T09:00:00Z', [wrong.eventID]],
    ] as const) {
      const response = await api.get(`/epcis/events?${params}`);
      expect({ params, status: response.status, found: eventsOf(response.body).map((e) => e.eventID) }).toEqual({
        params,
        status: 200,
        found,
      });
    }
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

  it('refuses a second declaration of the same event; nothing is stored', async () => {
    const { rows: before } = await sql().query('SELECT count(*) FROM events WHERE account_id = $1', [account.id]);
    const again = await client(account.key).post('/epcis/capture', epcisDocument([{ ...wrong, errorDeclaration }]));
    expect(again.status).toBe(400);
    expect(Object.keys(again.body.errors)).toEqual(['/epcisBody/eventList/0/errorDeclaration']);
    const { rows: after } = await sql().query('SELECT count(*) FROM events WHERE account_id = $1', [account.id]);
    expect(after).toEqual(before);
  });

  it('keeps a declaration of an event the account does not hold, queryable, and applies it when that event arrives', async () => {
    const later = lotOf();
    const missing = objectEvent({
      eventTime: '2024-04-01T10:00:00.000-05:00',
      quantityList: [{ epcClass: ids.lgtin(later), quantity: 50, uom: 'KGM' }],
      readPoint: ids.sgln(),
    });
    const declaration = { declarationTime: '2024-04-02T09:00:00.000Z', reason: 'did_not_occur' };
    const other = await createAccount('epcis-declare-other');
    // Another account's declaration of the same eventID is its own: it stays pending there.
    expect(await capture(other.key, epcisDocument([{ ...missing, errorDeclaration: declaration }]))).toMatchObject({
      success: true,
    });
    expect(await capture(account.key, epcisDocument([{ ...missing, errorDeclaration: declaration }]))).toMatchObject({
      success: true,
      errors: [],
    });
    const api = client(account.key);
    const declared = eventsOf(
      (await api.get('/epcis/events?EXISTS_errorDeclaration=true', { 'GS1-EPC-Format': 'Never_Translates' })).body,
    );
    expect(declared.map((e) => [e.eventID, e.errorDeclaration])).toEqual([
      [wrong.eventID, errorDeclaration],
      [missing.eventID, declaration],
    ]);
    expect(eventsOf((await api.get(`/epcis/events/${encodeURIComponent(missing.eventID as string)}`)).body)).toEqual([
      expect.objectContaining({ eventID: missing.eventID, errorDeclaration: declaration }),
    ]);
    expect(eventsOf((await api.get('/epcis/events?EQ_errorReason=did_not_occur')).body).map((e) => e.eventID)).toEqual([
      missing.eventID,
    ]);
    // Declared twice before it arrives: the second is refused.
    const twice = await api.post('/epcis/capture', epcisDocument([{ ...missing, errorDeclaration: declaration }]));
    expect(twice.status).toBe(400);
    expect(Object.keys(twice.body.errors)).toEqual(['/epcisBody/eventList/0/errorDeclaration']);

    // The event arrives: it is marked by the declaration and its inventory reversed at its own time.
    expect(await capture(account.key, epcisDocument([missing]))).toMatchObject({ success: true, errors: [] });
    const after = eventsOf(
      (await api.get('/epcis/events?EXISTS_errorDeclaration=true', { 'GS1-EPC-Format': 'Never_Translates' })).body,
    );
    expect(after).toEqual([
      expect.objectContaining({ eventID: wrong.eventID }),
      { ...missing, errorDeclaration: declaration, recordTime: expect.any(String) },
    ]);
    expect(await timelineOf(account.id, product, later, location)).toEqual([
      { eventTime: '2024-04-01T15:00:00Z', delta: '50', balance: '50', available: '0' },
      { eventTime: '2024-04-01T15:00:00Z', delta: '-50', balance: '0', available: '0' },
    ]);
    // Once applied, it cannot be declared again.
    const again = await api.post('/epcis/capture', epcisDocument([{ ...missing, errorDeclaration: declaration }]));
    expect(again.status).toBe(400);
    // The other account's declaration is untouched: still its own event there.
    expect(
      eventsOf((await client(other.key).get('/epcis/events?EXISTS_errorDeclaration=true')).body).map((e) => e.eventID),
    ).toEqual([missing.eventID]);
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
    const job = await capture(
      account.key,
      epcisDocument([
        { ...sentAgain, errorDeclaration: { declarationTime: '2024-03-06T00:00:00Z', reason: 'did_not_occur' } },
      ]),
    );
    expect(job.success).toBe(true);
    const timeline = await timelineOf(account.id, product, lot, location);
    expect(timeline.slice(-2).map((r) => [r.delta, r.available])).toEqual([
      ['5', '60'],
      ['-5', '60'],
    ]);
  });

  it.each([
    'JSON/AssociationEvent/AssociationEvent-g.jsonld',
    'JSON/WithErrorDeclaration/ErrorDeclarationAndCorrectiveEvent.jsonld',
  ])('%s: a declaration with an eventID of its own is found by its event’s hash id too', async (file) => {
    const own = await createAccount('epcis-declare-hash');
    const document = fixtureJson(file);
    const [declaration] = document.epcisBody.eventList;
    const hash = eventHashId(declaration, namespacesOfContext(document['@context']));
    expect(hash).not.toBe(declaration.eventID);
    expect(await capture(own.key, document)).toMatchObject({ success: true, errors: [] });
    const api = client(own.key);
    const found = eventsOf((await api.get(`/epcis/events?EQ_eventID=${encodeURIComponent(hash)}`)).body);
    expect(found.map((e) => [e.eventID, e.errorDeclaration !== undefined])).toEqual([[declaration.eventID, true]]);
    // The declared event itself, arriving later, is no duplicate of its declaration: it is captured and marked.
    const { errorDeclaration: _declaration, ...declared } = declaration;
    const arrived = await capture(own.key, { ...document, epcisBody: { eventList: [declared] } });
    expect(arrived).toMatchObject({ success: true, errors: [] });
    const after = eventsOf((await api.get(`/epcis/events?EQ_eventID=${encodeURIComponent(hash)}`)).body);
    expect(after.map((e) => [e.eventID, e.errorDeclaration !== undefined])).toEqual([[declaration.eventID, true]]);
  });
});
