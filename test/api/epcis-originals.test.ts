import { createAccount, createSupportKey, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, everyKindDocument, gs1Ids, objectEvent } from '../factories/epcis';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';

/** GET /epcis/events of the account, every event, in the order recorded. */
async function allEvents(key: string) {
  const answer = await client(key).get<{ epcisBody: { queryResults: { resultsBody: { eventList: unknown[] } } } }>(
    '/epcis/events?perPage=100',
  );
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Ways a captured event is read: the event list, a query on its index, its hash id, the ledger, the support view. */
async function answers(account: TestAccount, support: TestAccount, captureID: string, transformationID: string) {
  const byIndex = await client(account.key).get(
    `/epcis/events?EQ_bizStep=commissioning&EQ_transformationID=${encodeURIComponent(transformationID)}`,
  );
  const xml = await client(account.key).get('/epcis/events', { Accept: 'application/xml' });
  const ledger = await client(account.key).get('/Integration/Ledger/verify');
  const batch = await client(support.key).get<{ request: unknown }>(
    `/Integration/Batches/${captureID}?include=request`,
  );
  const answered = {
    events: await allEvents(account.key),
    byIndex: byIndex.body,
    xml: xml.text,
    ledger: ledger.body,
    request: batch.body.request,
  };
  // A query document's creationDate is when it was answered.
  return JSON.parse(
    JSON.stringify(answered).replace(/(creationDate(?:=\\"|":"))[^"\\]+/g, '$1answered'),
  ) as typeof answered;
}

describe('a captured event’s original is stored once', () => {
  let account: TestAccount;
  let support: TestAccount;

  beforeAll(async () => {
    account = await createAccount('epcis-originals');
    support = await createSupportKey();
  });

  it('in epcis_originals only: neither the batch’s request nor the event’s payload holds a copy, and every answer is the same as with the copy in the payload', async () => {
    const kinds = everyKindDocument();
    const job = await capture(account.key, kinds.document);
    expect(job).toMatchObject({ success: true, errors: [] });
    const events = Object.values(kinds.events);

    // In the order of the events that name them (a table's own order is none: rows fill free space).
    const { rows: originals } = await sql().query<{ epcis: { eventID: string } }>(
      `SELECT o.epcis FROM epcis_originals o LEFT JOIN events e ON o.id = (e.payload ->> 'EpcisOriginal')::uuid
        WHERE o.account_id = $1 ORDER BY e.seq`,
      [account.id],
    );
    expect(originals).toHaveLength(events.length);
    // Each event's eventID (or, sent without, its hash id) is in its original, and nowhere else but the
    // event row's own column: the request and the payload name the original by its id.
    const { rows: copies } = await sql().query<{ batch: boolean; payload: number }>(
      `SELECT position('"Epcis"' IN b.request::text) > 0 AS batch,
              (SELECT count(*)::int FROM events e WHERE e.batch_id = b.id AND (e.payload ? 'Epcis' OR e.payload ? 'EpcisIndex' OR e.payload ? 'EpcisContext')) AS payload
         FROM batches b WHERE b.id = $1`,
      [job.captureID],
    );
    expect(copies).toEqual([{ batch: false, payload: 0 }]);
    const { rows: named } = await sql().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events e JOIN epcis_originals o ON o.id = (e.payload ->> 'EpcisOriginal')::uuid
        WHERE e.batch_id = $1 AND o.epcis ->> 'eventID' = e.external_event_id`,
      [job.captureID],
    );
    expect(named).toEqual([{ n: events.length }]);

    const apart = await answers(account, support, job.captureID, kinds.events.transformation.transformationID);
    expect(apart.ledger).toMatchObject({ valid: true });
    expect(apart.events.epcisBody.queryResults.resultsBody.eventList).toHaveLength(events.length);
    // The support view shows the request as the capture's translation made it: each original in place.
    const request = apart.request as { Events: Record<string, unknown>[] };
    expect(request.Events.map((e) => (e.Epcis as { eventID: string }).eventID)).toEqual(
      originals.map((o) => o.epcis.eventID),
    );
    expect(request.Events.every((e) => e.EpcisIndex && !('EpcisOriginal' in e))).toBe(true);

    // The same rows in the shape events captured before had (each original in its payload) answer the same.
    await sql().query(
      `UPDATE events e SET payload = (e.payload - 'EpcisOriginal') || jsonb_build_object('Epcis', o.epcis, 'EpcisIndex', o.epcis_index)
              || CASE WHEN o.context IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('EpcisContext', o.context) END
         FROM epcis_originals o WHERE o.id = (e.payload ->> 'EpcisOriginal')::uuid AND e.batch_id = $1`,
      [job.captureID],
    );
    await sql().query(
      `UPDATE batches b SET request = jsonb_set(b.request, '{Events}', (
         SELECT jsonb_agg((x.ev - 'EpcisOriginal') || jsonb_build_object('Epcis', o.epcis, 'EpcisIndex', o.epcis_index)
                  || CASE WHEN o.context IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('EpcisContext', o.context) END ORDER BY x.n)
           FROM jsonb_array_elements(b.request -> 'Events') WITH ORDINALITY AS x(ev, n)
           JOIN epcis_originals o ON o.id = (x.ev ->> 'EpcisOriginal')::uuid)) WHERE b.id = $1`,
      [job.captureID],
    );
    await sql().query('DELETE FROM epcis_originals WHERE account_id = $1', [account.id]);
    const inPlace = await answers(account, support, job.captureID, kinds.events.transformation.transformationID);
    expect(inPlace).toEqual(apart);
  });

  it('a failed capture retried stores its events naming the same originals, answered as sent', async () => {
    const ids = gs1Ids();
    const first = objectEvent({ quantityList: [{ epcClass: ids.lgtin('A'), quantity: 1 }], readPoint: ids.sgln() });
    expect((await capture(account.key, epcisDocument([first]))).success).toBe(true);
    const fresh = objectEvent({ quantityList: [{ epcClass: ids.lgtin('B'), quantity: 2 }], readPoint: ids.sgln() });
    const failed = await capture(account.key, epcisDocument([fresh, first]));
    expect(failed).toMatchObject({ running: false, success: false });
    // The cause fixed: the earlier event no longer holds the eventID the document repeats.
    await sql().query(
      `UPDATE events SET external_event_id = external_event_id || '-renamed' WHERE account_id = $1 AND external_event_id = $2`,
      [account.id, first.eventID],
    );
    const retry = await client(support.key).post<{ batchId: string; statusUrl: string }>(
      `/Integration/Batches/${failed.captureID}/retry`,
    );
    expect(retry.status).toBe(202);
    let status = '';
    for (let i = 0; i < 300 && !['Completed', 'Failed'].includes(status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await client(support.key).get<{ status: string }>(`/Integration/Batches/${retry.body.batchId}`)).body
        .status;
    }
    expect(status).toBe('Completed');
    const { rows } = await sql().query<{ originals: number; events: number }>(
      `SELECT count(DISTINCT o.id)::int AS originals, count(*)::int AS events
         FROM events e JOIN epcis_originals o ON o.id = (e.payload ->> 'EpcisOriginal')::uuid
        WHERE e.batch_id = $1`,
      [retry.body.batchId],
    );
    expect(rows).toEqual([{ originals: 2, events: 2 }]);
    for (const sent of [fresh, first]) {
      const answer = await client(account.key).get<{
        epcisBody: { queryResults: { resultsBody: { eventList: { recordTime: string }[] } } };
      }>(`/epcis/events/${encodeURIComponent(sent.eventID as string)}`, { 'GS1-EPC-Format': 'Never_Translates' });
      expect(answer.status).toBe(200);
      const [event] = answer.body.epcisBody.queryResults.resultsBody.eventList;
      expect(event).toEqual({ ...sent, recordTime: event.recordTime });
    }
  });
});
