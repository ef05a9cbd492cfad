import { Client, Connection, ScheduleNotFoundError } from '@temporalio/client';
import { createHmac } from 'node:crypto';
import { gs1SchemaIssues } from '../../domain/epcis/json-schema';
import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, objectEvent } from '../factories/epcis';
import { commission, instance, uid } from '../factories/events';
import { completeBatch } from '../../db/repositories/batch-notifications';
import { models, sql } from '../helpers/db';
import { client, request } from '../helpers/http';
import { startReceiver, type Receiver, type Received } from '../helpers/receiver';

/** Events of one account differ in their time: two alike would be one event by its CBV hash id. */
let tick = 0;
const nextTime = () => new Date(Date.UTC(2024, 2, 1, 15) + ++tick * 1000).toISOString();

const eventIdsOf = (document: { epcisBody: { queryResults: { resultsBody: { eventList: { eventID: string }[] } } } }) =>
  document.epcisBody.queryResults.resultsBody.eventList.map((e) => e.eventID);

/** What a subscriber does with a report: check GS1-Signature over the exact body, then read it. */
function verifiedReport(token: string, report: Received) {
  expect(report.headers['gs1-signature']).toBe(createHmac('sha256', token).update(report.body).digest('hex'));
  return JSON.parse(report.body);
}

const nameOf = () => uid('q').replace(/-/g, '_');

async function namedQuery(account: TestAccount, query: Record<string, unknown>): Promise<string> {
  const name = nameOf();
  const created = await client(account.key).post('/epcis/queries', { name, query });
  expect(created.status).toBe(201);
  return name;
}

describe('/epcis/queries: named queries and subscriptions', () => {
  let receivers: Receiver[] = [];
  const receiver = async () => {
    const started = await startReceiver('/epcis-callback');
    receivers.push(started);
    return started;
  };
  afterEach(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    receivers = [];
  });

  it('names a query, lists it, refuses a second of the same name, and deletes it', async () => {
    const account = await createAccount('queries');
    const name = nameOf();
    const created = await client(account.key).post('/epcis/queries', {
      name,
      query: { eventType: ['ObjectEvent'], EQ_bizStep: ['shipping', 'receiving'] },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/epcis/queries/${name}`);
    expect(created.body).toMatchObject({
      name,
      query: { eventType: ['ObjectEvent'], EQ_bizStep: ['shipping', 'receiving'] },
    });
    expect((await client(account.key).post('/epcis/queries', { name, query: {} })).status).toBe(409);
    expect((await client(account.key).get('/epcis/queries')).body.map((q: { name: string }) => q.name)).toEqual([name]);
    expect((await client(account.key).get(`/epcis/queries/${name}`)).body.name).toBe(name);
    const other = await createAccount('queries-other');
    expect((await client(other.key).get(`/epcis/queries/${name}`)).status).toBe(404);
    expect((await request('DELETE', `/epcis/queries/${name}`, { key: account.key })).status).toBe(204);
    expect((await client(account.key).get(`/epcis/queries/${name}`)).status).toBe(404);
    expect((await request('DELETE', `/epcis/queries/${name}`, { key: account.key })).status).toBe(404);
  });

  it('lists queries and subscriptions a page at a time, and deleting what a page listed skips nothing after it', async () => {
    const account = await createAccount('queries-pages');
    // The longest name, with the ~ a page token might take for a separator, ends the first page.
    const longest = `q~${'x'.repeat(98)}`;
    const names = [await namedQuery(account, {})];
    expect((await client(account.key).post('/epcis/queries', { name: longest, query: {} })).status).toBe(201);
    names.push(longest, await namedQuery(account, {}));
    const dest = await receiver();
    const subscriptions: string[] = [];
    for (let i = 0; i < 3; i++) {
      const subscribed = await client(account.key).post(`/epcis/queries/${names[0]}/subscriptions`, {
        dest: dest.url,
        stream: true,
      });
      subscriptions.push(subscribed.body.subscriptionID);
    }
    /** Every item of the listing, deleting each page's before following its Link (a clean-up script's loop). */
    const listedWhileDeleting = async (path: string, idOf: (item: Record<string, string>) => string) => {
      const listed: string[] = [];
      for (let url: string | null = `${path}?perPage=2`; url;) {
        const page: { status: number; body: Record<string, string>[]; headers: Headers } = await client(
          account.key,
        ).get(url);
        expect(page.status).toBe(200);
        const ids = page.body.map(idOf);
        listed.push(...ids);
        for (const id of ids) expect((await request('DELETE', `${path}/${id}`, { key: account.key })).status).toBe(204);
        const link: string | null = page.headers.get('link');
        url = link && link.slice(1, link.indexOf('>'));
      }
      return listed;
    };
    expect(
      await listedWhileDeleting(`/epcis/queries/${names[0]}/subscriptions`, (item) => item.subscriptionID),
    ).toEqual(subscriptions);
    expect(await listedWhileDeleting('/epcis/queries', (item) => item.name)).toEqual(names);
    // A token changed by hand is a 400, never a 500.
    const tampered = (text: string) => Buffer.from(text).toString('base64url');
    for (const path of [
      `/epcis/queries?nextPageToken=${tampered('9999999999999999999~a')}`,
      `/epcis/queries/${await namedQuery(account, {})}/subscriptions?nextPageToken=${tampered('1~abc')}`,
    ]) {
      const refused = await client(account.key).get(path);
      expect({ path, status: refused.status }).toEqual({ path, status: 400 });
    }
  });

  it('refuses a query with an unknown parameter or an unreadable value, naming it', async () => {
    const account = await createAccount('queries-bad');
    const unknown = await client(account.key).post('/epcis/queries', { name: nameOf(), query: { EQ_colour: 'red' } });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.errors)).toEqual(['/query/EQ_colour']);
    const pattern = await client(account.key).post('/epcis/queries', {
      name: nameOf(),
      query: { MATCH_epc: ['urn:epc:idpat:sgtin:4012345.*'] },
    });
    expect(pattern.status).toBe(400);
    expect(pattern.body.detail).toContain('MATCH_epc');
    // A list of blanks would filter nothing: the query would report every event.
    const blank = await client(account.key).post('/epcis/queries', { name: nameOf(), query: { EQ_bizStep: [' '] } });
    expect(blank.status).toBe(400);
    expect(Object.keys(blank.body.errors)).toEqual(['/EQ_bizStep']);
    const extra = await client(account.key).post('/epcis/queries', { name: nameOf(), query: {}, owner: 'me' });
    expect(extra.status).toBe(400);
    expect(Object.keys(extra.body.errors)).toEqual(['/owner']);
  });

  it('runs a named query now, paged like /epcis/events, with only the account’s events', async () => {
    const account = await createAccount('queries-run');
    const shipped = [
      objectEvent({ bizStep: 'shipping', eventTime: nextTime() }),
      objectEvent({ bizStep: 'shipping', eventTime: nextTime() }),
    ];
    await capture(
      account.key,
      epcisDocument([...shipped, objectEvent({ bizStep: 'receiving', eventTime: nextTime() })]),
    );
    const other = await createAccount('queries-run-other');
    await capture(other.key, epcisDocument([objectEvent({ bizStep: 'shipping', eventTime: nextTime() })]));
    const name = await namedQuery(account, { EQ_bizStep: 'shipping' });

    const first = await client(account.key).get(`/epcis/queries/${name}/events?perPage=1`);
    expect(first.status).toBe(200);
    expect(gs1SchemaIssues(first.body)).toEqual([]);
    expect(first.body.epcisBody.queryResults.queryName).toBe(name);
    expect(eventIdsOf(first.body)).toEqual([shipped[0].eventID]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link')!)![1];
    const second = await client(account.key).get(next);
    expect(eventIdsOf(second.body)).toEqual([shipped[1].eventID]);
    expect(second.headers.get('link')).toBeNull();
    expect((await client(account.key).get('/epcis/queries/nope/events')).status).toBe(404);
  });

  it('names a query as long as GET /epcis/events takes (a trace’s every EPC), as a list or a |-separated string, and refuses a longer one naming it', async () => {
    const account = await createAccount('queries-long');
    const shipped = objectEvent({
      bizStep: 'shipping',
      eventTime: nextTime(),
      epcList: ['urn:epc:id:sgtin:4012345.011111.7'],
    });
    await capture(account.key, epcisDocument([shipped]));
    // 150 EPCs, 5,000 characters or so: within the 8,000 a parameter of GET /epcis/events may hold.
    const epcs = Array.from({ length: 149 }, (_, i) => `urn:epc:id:sgtin:4012345.011111.${1000 + i}`);
    epcs.push('urn:epc:id:sgtin:4012345.011111.7');
    const adHoc = await client(account.key).get(`/epcis/events?MATCH_anyEPC=${encodeURIComponent(epcs.join('|'))}`);
    expect(eventIdsOf(adHoc.body)).toEqual([shipped.eventID]);
    for (const MATCH_anyEPC of [epcs, epcs.join('|')]) {
      const name = nameOf();
      const created = await client(account.key).post('/epcis/queries', { name, query: { MATCH_anyEPC } });
      expect(created.status).toBe(201);
      expect(eventIdsOf((await client(account.key).get(`/epcis/queries/${name}/events`)).body)).toEqual([
        shipped.eventID,
      ]);
    }
    const tooLong = await client(account.key).post('/epcis/queries', {
      name: nameOf(),
      query: { MATCH_anyEPC: [...epcs, ...epcs] },
    });
    expect(tooLong.status).toBe(400);
    expect(Object.keys(tooLong.body.errors)).toEqual(['/query/MATCH_anyEPC']);
  });

  it('runs a named query with every time bound GET /epcis/events takes, GT_ and LE_ included, as GET /epcis/events answers it', async () => {
    const account = await createAccount('queries-times');
    const times = [nextTime(), nextTime(), nextTime()];
    const events = times.map((eventTime) => objectEvent({ eventTime }));
    const all = events.map((e) => e.eventID);
    await capture(account.key, epcisDocument(events));
    const declaration = { declarationTime: new Date().toISOString(), reason: 'did_not_occur' };
    await capture(account.key, epcisDocument([{ ...events[2], errorDeclaration: declaration }]));
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const cases: [Record<string, string>, typeof all][] = [
      [{ GT_recordTime: hourAgo }, all],
      [{ LE_recordTime: hourAgo }, []],
      [{ GT_recordTime: inAnHour }, []],
      [{ LE_recordTime: inAnHour, GE_recordTime: hourAgo }, all],
      [{ GT_eventTime: times[0], LE_eventTime: times[1] }, [all[1]]],
      [{ GE_errorDeclarationTime: hourAgo, LT_errorDeclarationTime: inAnHour }, [all[2]]],
      [{ GT_errorDeclarationTime: inAnHour }, []],
    ];
    for (const [query, expected] of cases) {
      const adHoc = await client(account.key).get(`/epcis/events?${new URLSearchParams(query).toString()}`);
      expect(adHoc.status).toBe(200);
      expect(eventIdsOf(adHoc.body)).toEqual(expected);
      const named = await client(account.key).get(`/epcis/queries/${await namedQuery(account, query)}/events`);
      expect({ query, status: named.status }).toEqual({ query, status: 200 });
      expect(eventIdsOf(named.body)).toEqual(expected);
    }
  });

  it('streams each batch’s matching events to dest, signed with GS1-Signature, from EPCIS capture and /Integration/Events', async () => {
    const account = await createAccount('queries-stream');
    const name = await namedQuery(account, { eventType: 'ObjectEvent', EQ_bizStep: ['shipping', 'commissioning'] });
    const dest = await receiver();
    const token = 'sub-token-' + uid('t');
    const subscribed = await client(account.key).post(`/epcis/queries/${name}/subscriptions`, {
      dest: dest.url,
      signatureToken: token,
      stream: true,
    });
    expect(subscribed.status).toBe(201);
    const { subscriptionID } = subscribed.body;
    expect(subscribed.headers.get('location')).toBe(`/epcis/queries/${name}/subscriptions/${subscriptionID}`);
    expect(subscribed.body).not.toHaveProperty('signatureToken');

    const shipping = objectEvent({ bizStep: 'shipping', eventTime: nextTime() });
    await capture(account.key, epcisDocument([shipping, objectEvent({ bizStep: 'receiving', eventTime: nextTime() })]));
    const [report] = await dest.waitFor(1);
    const document = verifiedReport(token, report);
    expect(gs1SchemaIssues(document)).toEqual([]);
    expect(document.epcisBody.queryResults).toMatchObject({ queryName: name, subscriptionID });
    expect(eventIdsOf(document)).toEqual([shipping.eventID]);

    // Another account's matching events are never reported to this subscription.
    const other = await createAccount('queries-stream-other');
    await capture(other.key, epcisDocument([objectEvent({ bizStep: 'shipping', eventTime: nextTime() })]));

    const lot = uid('LOT');
    expect(
      (
        await client(account.key).post('/Integration/Events', {
          Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', lot, 10))],
        })
      ).status,
    ).toBe(200);
    const [, native] = await dest.waitFor(2);
    const nativeDocument = verifiedReport(token, native);
    expect(nativeDocument.epcisBody.queryResults.resultsBody.eventList).toHaveLength(1);
    expect(JSON.stringify(nativeDocument)).toContain(lot);
    expect(dest.received).toHaveLength(2);

    const shown = await client(account.key).get(`/epcis/queries/${name}/subscriptions/${subscriptionID}`);
    expect(shown.body).toMatchObject({
      subscriptionID,
      queryName: name,
      dest: dest.url,
      stream: true,
      lastNotifiedAt: expect.any(String),
    });
    expect(
      (await client(account.key).get(`/epcis/queries/${name}/subscriptions`)).body.map(
        (s: { subscriptionID: string }) => s.subscriptionID,
      ),
    ).toEqual([subscriptionID]);

    expect(
      (await request('DELETE', `/epcis/queries/${name}/subscriptions/${subscriptionID}`, { key: account.key })).status,
    ).toBe(204);
    await capture(account.key, epcisDocument([objectEvent({ bizStep: 'shipping', eventTime: nextTime() })]));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(dest.received).toHaveLength(2);
    expect((await client(account.key).get(`/epcis/queries/${name}/subscriptions/${subscriptionID}`)).status).toBe(404);
  });

  it('starts a stream at initialRecordTime: what was recorded since comes first, then each batch', async () => {
    const account = await createAccount('queries-stream-initial');
    const name = await namedQuery(account, { EQ_bizStep: 'shipping' });
    const old = objectEvent({ bizStep: 'shipping', eventTime: nextTime() });
    await capture(account.key, epcisDocument([old]));
    const before = new Date().toISOString();
    const recorded = [0, 1].map(() => objectEvent({ bizStep: 'shipping', eventTime: nextTime() }));
    for (const event of recorded)
      await capture(account.key, epcisDocument([event, objectEvent({ bizStep: 'receiving', eventTime: nextTime() })]));
    const dest = await receiver();
    const subscribed = await client(account.key).post(`/epcis/queries/${name}/subscriptions`, {
      dest: dest.url,
      signatureToken: 'tok',
      stream: true,
      initialRecordTime: before,
    });
    expect(subscribed.status).toBe(201);
    expect(subscribed.body).toMatchObject({ stream: true, initialRecordTime: before });
    const [first] = await dest.waitFor(1);
    expect(eventIdsOf(verifiedReport('tok', first))).toEqual(recorded.map((event) => event.eventID));

    const next = objectEvent({ bizStep: 'shipping', eventTime: nextTime() });
    await capture(account.key, epcisDocument([next]));
    const [, second] = await dest.waitFor(2);
    expect(eventIdsOf(verifiedReport('tok', second))).toEqual([next.eventID]);
  });

  it('splits what a report would carry past 1,000 events into reports of 1,000 at most, in the order recorded', async () => {
    const account = await createAccount('queries-stream-split');
    const name = await namedQuery(account, { EQ_bizStep: 'shipping' });
    const before = new Date().toISOString();
    const recorded = Array.from({ length: 1200 }, () => objectEvent({ bizStep: 'shipping', eventTime: nextTime() }));
    for (const part of [recorded.slice(0, 600), recorded.slice(600)])
      expect(await capture(account.key, epcisDocument(part))).toMatchObject({ success: true });
    const dest = await receiver();
    const subscribed = await client(account.key).post(`/epcis/queries/${name}/subscriptions`, {
      dest: dest.url,
      stream: true,
      initialRecordTime: before,
    });
    expect(subscribed.status).toBe(201);
    // Each report is a delivery of its own, sent once the one before was answered.
    const reports = (await dest.waitFor(2)).map((report) => eventIdsOf(JSON.parse(report.body)));
    expect(reports.map((ids) => ids.length)).toEqual([1000, 200]);
    expect(reports.flat()).toEqual(recorded.map((event) => event.eventID));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(dest.received).toHaveLength(2);
  });

  it('puts a batch in a scheduled subscription’s backlog once: a retried completion does not add it again after a run took it', async () => {
    const account = await createAccount('queries-backlog');
    const dest = await receiver();
    // A stream subscription makes the batch's completion go through finishBatch; the scheduled one (hourly:
    // it does not run during the test) keeps a backlog of the batches completed since its last run.
    const streamed = await client(account.key).post(
      `/epcis/queries/${await namedQuery(account, { EQ_bizStep: 'shipping' })}/subscriptions`,
      { dest: dest.url, signatureToken: 'tok', stream: true },
    );
    const scheduled = await client(account.key).post(
      `/epcis/queries/${await namedQuery(account, { EQ_bizStep: 'commissioning' })}/subscriptions`,
      { dest: dest.url, signatureToken: 'tok', schedule: { hour: '1' } },
    );
    expect([streamed.status, scheduled.status]).toEqual([201, 201]);
    const lot = uid('LOT');
    const answer = await client(account.key).post('/Integration/Events', {
      Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', lot, 10))],
    });
    expect(answer.status).toBe(200);
    const { batchId } = answer.body;
    const backlog = async () =>
      (
        await sql().query('SELECT 1 FROM epcis_subscription_backlog WHERE subscription_id = $1 AND batch_id = $2', [
          scheduled.body.subscriptionID,
          batchId,
        ])
      ).rowCount;
    expect(await backlog()).toBe(1);

    // The scheduled run reports the batch and empties its backlog; then the status step runs again (its
    // first attempt committed, but its answer was lost).
    await sql().query('DELETE FROM epcis_subscription_backlog WHERE subscription_id = $1', [
      scheduled.body.subscriptionID,
    ]);
    const again = await completeBatch(models(), batchId, {});
    expect(again.result.changed).toBe(false);
    expect(await backlog()).toBe(0);
  });

  it('runs a scheduled subscription on a Temporal Schedule, from initialRecordTime, then from the last event it reported', async () => {
    const account = await createAccount('queries-schedule');
    const before = new Date(Date.now() - 1000).toISOString();
    const first = objectEvent({ bizStep: 'shipping', eventTime: nextTime() });
    await capture(account.key, epcisDocument([first]));
    const name = await namedQuery(account, { EQ_bizStep: 'shipping' });
    const dest = await receiver();
    const subscribed = await client(account.key).post(
      `/epcis/queries/${name}/subscriptions`,
      { dest: dest.url, signatureToken: 'tok', schedule: { second: '0/2' }, initialRecordTime: before },
      { 'GS1-EPC-Format': 'Never_Translates' },
    );
    expect(subscribed.status).toBe(201);
    expect(subscribed.body).toMatchObject({
      schedule: { second: '0/2' },
      reportIfEmpty: false,
      epcFormat: 'Never_Translates',
      initialRecordTime: before,
    });
    const { subscriptionID } = subscribed.body;

    const temporal = new Client({ connection: await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! }) });
    try {
      const schedule = await temporal.schedule.getHandle(`epcis-subscription-${subscriptionID}`).describe();
      expect(schedule.action).toMatchObject({ workflowType: 'reportEpcisSubscription' });

      const [report] = await dest.waitFor(1, () => true, 30_000);
      expect(eventIdsOf(verifiedReport('tok', report))).toEqual([first.eventID]);
      const second = objectEvent({ bizStep: 'shipping', eventTime: nextTime() });
      await capture(account.key, epcisDocument([second, objectEvent({ bizStep: 'receiving', eventTime: nextTime() })]));
      const [, next] = await dest.waitFor(2, () => true, 30_000);
      expect(eventIdsOf(verifiedReport('tok', next))).toEqual([second.eventID]);

      expect((await request('DELETE', `/epcis/queries/${name}`, { key: account.key })).status).toBe(204);
      await expect(temporal.schedule.getHandle(`epcis-subscription-${subscriptionID}`).describe()).rejects.toThrow(
        ScheduleNotFoundError,
      );
      const reports = dest.received.length;
      await new Promise((resolve) => setTimeout(resolve, 4000));
      expect(dest.received).toHaveLength(reports);
    } finally {
      await temporal.connection.close();
    }
  }, 90_000);

  it.each([
    ['a dest that is not public', { dest: 'https://10.0.0.1/cb', stream: true }, '/dest'],
    ['neither stream nor schedule', { dest: 'https://93.184.216.34/cb' }, '/stream'],
    [
      'both stream and schedule',
      { dest: 'https://93.184.216.34/cb', stream: true, schedule: { hour: '1' } },
      '/stream',
    ],
    [
      'a schedule field out of range',
      { dest: 'https://93.184.216.34/cb', schedule: { minute: '99' } },
      '/schedule/minute',
    ],
    ['an unknown field', { dest: 'https://93.184.216.34/cb', stream: true, secret: 'x' }, '/secret'],
    // A stream reports only batches with matching events: an empty report is never sent, as over a WebSocket.
    [
      'reportIfEmpty on a stream',
      { dest: 'https://93.184.216.34/cb', stream: true, reportIfEmpty: true },
      '/reportIfEmpty',
    ],
  ])('refuses a subscription with %s, naming it', async (_, body, pointer) => {
    const account = await createAccount('queries-sub-bad');
    const name = await namedQuery(account, {});
    const refused = await client(account.key).post(`/epcis/queries/${name}/subscriptions`, body);
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual([pointer]);
    expect((await client(account.key).get(`/epcis/queries/${name}/subscriptions`)).body).toEqual([]);
  });
});
