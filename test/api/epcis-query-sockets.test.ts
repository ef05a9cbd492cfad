import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { WebSocket } from 'ws';
import { gs1SchemaIssues } from '../../domain/epcis/json-schema';
import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, objectEvent } from '../factories/epcis';
import { uid } from '../factories/events';
import { listenerName } from '../../db/batch-finished';
import { readLiveState } from '../../supervisor/state';
import { sql } from '../helpers/db';
import { apiUrl, client, request } from '../helpers/http';

/** Events of one account differ in their time: two alike would be one event by its CBV hash id. */
let tick = 0;
const nextTime = () => new Date(Date.UTC(2024, 4, 1, 15) + ++tick * 1000).toISOString();

interface QueryDocument {
  epcisBody: {
    queryResults: { queryName: string; subscriptionID: string; resultsBody: { eventList: { eventID: string }[] } };
  };
}
const eventIdsOf = (document: QueryDocument) =>
  document.epcisBody.queryResults.resultsBody.eventList.map((e) => e.eventID);

const nameOf = () => uid('q').replace(/-/g, '_');

async function namedQuery(account: TestAccount, query: Record<string, unknown>, name = nameOf()): Promise<string> {
  const created = await client(account.key).post('/epcis/queries', { name, query });
  expect(created.status).toBe(201);
  return name;
}

const socketUrl = (name: string, query: string) =>
  `${apiUrl().replace(/^http/, 'ws')}/epcis/queries/${name}/events?${query}`;

/** A subscriber as a dashboard runs one: the ws package's client, every message kept as it arrives. */
interface Subscriber {
  ws: WebSocket;
  upgrade: IncomingMessage;
  messages: QueryDocument[];
  /** Resolves with the first `count` messages once they have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<QueryDocument[]>;
  close(): Promise<void>;
}

const open: WebSocket[] = [];

function subscribe(key: string, name: string, query: string, autoPong = true): Promise<Subscriber> {
  const ws = new WebSocket(socketUrl(name, query), { headers: { 'X-API-KEY': key }, autoPong });
  open.push(ws);
  const messages: QueryDocument[] = [];
  // Text frames: each is one document.
  ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8'))));
  return new Promise((resolve, reject) => {
    let upgrade: IncomingMessage;
    ws.once('upgrade', (response) => (upgrade = response));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade answered ${res.statusCode}`)));
    ws.once('error', reject);
    ws.once('open', () => {
      // OpenEPCIS's client says it is ready once open: the server takes it and sends nothing back for it.
      ws.send('_ready_');
      resolve({
        ws,
        upgrade,
        messages,
        async waitFor(count, timeoutMs = 10_000) {
          const deadline = Date.now() + timeoutMs;
          while (messages.length < count) {
            if (Date.now() > deadline) throw new Error(`${messages.length} of ${count} messages after ${timeoutMs} ms`);
            await new Promise((r) => setTimeout(r, 50));
          }
          return messages.slice(0, count);
        },
        close: () =>
          new Promise<void>((done) => {
            if (ws.readyState === WebSocket.CLOSED) return done();
            ws.once('close', () => done());
            ws.close();
          }),
      });
    });
  });
}

/** What the server answers instead of upgrading: its status, headers and problem body. */
function refusedUpgrade(
  query: string,
  name: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: { type?: string; title: string; errors?: Record<string, string[]> } }> {
  const ws = new WebSocket(socketUrl(name, query), { headers });
  open.push(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => reject(new Error('the upgrade was accepted')));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
  });
}

/** One request written as raw bytes (what no client library sends), and everything answered until `done` says so or the connection closes. */
function rawExchange(request: string, done: (answer: string) => boolean): Promise<string> {
  const { hostname, port } = new URL(apiUrl());
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (done(text)) socket.end();
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

const openSockets = async (mode: 'stream' | 'schedule'): Promise<number> => {
  const text = (await request<string>('GET', '/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`traceability_epcis_query_sockets_open{mode="${mode}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
};

async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not so after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('GET /epcis/queries/{queryName}/events over a WebSocket', () => {
  afterEach(() => {
    for (const ws of open.splice(0)) ws.terminate();
  });

  it('streams each capture’s matching events as an EPCISQueryDocument, of the account’s own events only', async () => {
    const account = await createAccount('socket-stream');
    const other = await createAccount('socket-stream-other');
    // The same query name in both accounts: each socket is its own account's.
    const name = await namedQuery(account, { EQ_bizStep: 'shipping' });
    await namedQuery(other, { EQ_bizStep: 'shipping' }, name);
    const mine = await subscribe(account.key, name, 'stream=true');
    const theirs = await subscribe(other.key, name, 'stream=true');
    expect(mine.upgrade.headers['gs1-query-min-record-time']).toEqual(expect.any(String));
    expect(mine.upgrade.headers['x-request-id']).toEqual(expect.any(String));

    const shipping = objectEvent({ bizStep: 'shipping', eventTime: nextTime() });
    const started = Date.now();
    await capture(account.key, epcisDocument([shipping, objectEvent({ bizStep: 'receiving', eventTime: nextTime() })]));
    const [report] = await mine.waitFor(1, 5000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(gs1SchemaIssues(report)).toEqual([]);
    expect(report.epcisBody.queryResults).toMatchObject({
      queryName: name,
      subscriptionID: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(eventIdsOf(report)).toEqual([shipping.eventID]);

    const theirShipping = objectEvent({ bizStep: 'shipping', eventTime: nextTime() });
    await capture(other.key, epcisDocument([theirShipping]));
    const [theirReport] = await theirs.waitFor(1, 5000);
    expect(eventIdsOf(theirReport)).toEqual([theirShipping.eventID]);
    expect(theirReport.epcisBody.queryResults.subscriptionID).not.toBe(report.epcisBody.queryResults.subscriptionID);

    // The next report of this socket is of this account's next capture: the other account's never came.
    const next = objectEvent({ bizStep: 'shipping', eventTime: nextTime() });
    await capture(account.key, epcisDocument([next]));
    const [, second] = await mine.waitFor(2, 5000);
    expect(eventIdsOf(second)).toEqual([next.eventID]);
    expect(theirs.messages).toHaveLength(1);
    expect(mine.messages).toHaveLength(2);
  });

  it('starts a stream at initialRecordTime: what was recorded since comes first', async () => {
    const account = await createAccount('socket-initial');
    const before = new Date(Date.now() - 1000).toISOString();
    const earlier = objectEvent({ bizStep: 'shipping', eventTime: nextTime() });
    await capture(account.key, epcisDocument([earlier]));
    const name = await namedQuery(account, { EQ_bizStep: 'shipping' });
    const subscriber = await subscribe(
      account.key,
      name,
      `stream=true&initialRecordTime=${encodeURIComponent(before)}`,
    );
    expect(subscriber.upgrade.headers['gs1-query-min-record-time']).toBe(before);
    const [report] = await subscriber.waitFor(1, 5000);
    expect(eventIdsOf(report)).toEqual([earlier.eventID]);
  });

  it('splits what a report would carry past 1,000 events into reports of 1,000 at most, in the order recorded', async () => {
    const account = await createAccount('socket-split');
    const before = new Date(Date.now() - 1000).toISOString();
    const recorded = Array.from({ length: 1001 }, () => objectEvent({ bizStep: 'shipping', eventTime: nextTime() }));
    for (const part of [recorded.slice(0, 500), recorded.slice(500)])
      expect(await capture(account.key, epcisDocument(part))).toMatchObject({ success: true });
    const name = await namedQuery(account, { EQ_bizStep: 'shipping' });
    const subscriber = await subscribe(
      account.key,
      name,
      `stream=true&initialRecordTime=${encodeURIComponent(before)}`,
    );
    const reports = await subscriber.waitFor(2, 10_000);
    expect(reports.map((report) => eventIdsOf(report).length)).toEqual([1000, 1]);
    expect(reports.flatMap(eventIdsOf)).toEqual(recorded.map((event) => event.eventID));
  });

  it('signs each report under a signatureToken, as a webhook subscription’s report is signed', async () => {
    const account = await createAccount('socket-signed');
    const name = await namedQuery(account, { EQ_bizStep: 'shipping' });
    const token = 'a-token-only-the-subscriber-knows';
    const subscriber = await subscribe(account.key, name, `stream=true&signatureToken=${token}`);
    const shipping = objectEvent({ bizStep: 'shipping', eventTime: nextTime() });
    await capture(account.key, epcisDocument([shipping]));
    const [message] = (await subscriber.waitFor(1, 5000)) as unknown as {
      headers: Record<string, string>;
      body: string;
    }[];
    expect(Object.keys(message)).toEqual(['headers', 'body']);
    expect(message.headers).toEqual({
      'GS1-Signature': createHmac('sha256', token).update(message.body).digest('hex'),
    });
    const report = JSON.parse(message.body) as QueryDocument;
    expect(gs1SchemaIssues(report)).toEqual([]);
    expect(eventIdsOf(report)).toEqual([shipping.eventID]);

    // Without a socket, the token is a subscription parameter like the others.
    const plain = await client(account.key).get(`/epcis/queries/${name}/events?signatureToken=${token}`);
    expect(plain.status).toBe(400);
    expect(plain.body).toMatchObject({ code: 'epcis-subscription-needs-websocket' });
  });

  it('refuses a missing or wrong key, an unknown query and bad parameters before upgrading, with a problem body', async () => {
    const account = await createAccount('socket-refused');
    const name = await namedQuery(account, { EQ_bizStep: 'shipping' });

    const wrong = await refusedUpgrade('stream=true', name, { 'X-API-KEY': `${account.key.slice(0, -4)}AAAA` });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'invalid-api-key', title: 'The API key is not valid.' });
    const missing = await refusedUpgrade('stream=true', name, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'missing-api-key', errors: { 'X-API-KEY': [expect.any(String)] } });

    const unknown = await refusedUpgrade('stream=true', 'nope', { 'X-API-KEY': account.key });
    expect(unknown).toMatchObject({
      status: 404,
      body: { type: 'epcisException:NoSuchNameException', code: 'epcis-unknown-query' },
    });
    const both = await refusedUpgrade('stream=true&minute=5', name, { 'X-API-KEY': account.key });
    expect(both).toMatchObject({ status: 400, body: { code: 'epcis-stream-or-schedule' } });
    expect(Object.keys(both.body.errors!)).toEqual(['/stream']);
    const outOfRange = await refusedUpgrade('minute=99', name, { 'X-API-KEY': account.key });
    expect(outOfRange.body).toMatchObject({
      code: 'epcis-invalid-schedule',
      errors: { '/minute': [expect.any(String)] },
    });
    const unknownParameter = await refusedUpgrade('stream=true&colour=red', name, { 'X-API-KEY': account.key });
    expect(unknownParameter).toMatchObject({ status: 400, body: { code: 'epcis-invalid-query-parameters' } });
    expect(Object.keys(unknownParameter.body.errors!)).toEqual(['/colour']);
    const notStream = await refusedUpgrade('stream=false', name, { 'X-API-KEY': account.key });
    expect(Object.keys(notStream.body.errors!)).toEqual(['/stream']);
    const emptyStream = await refusedUpgrade('stream=true&reportIfEmpty=true', name, { 'X-API-KEY': account.key });
    expect(emptyStream.body).toMatchObject({ code: 'epcis-report-if-empty-needs-schedule' });
    const badTime = await refusedUpgrade('stream=true&initialRecordTime=yesterday', name, { 'X-API-KEY': account.key });
    expect(Object.keys(badTime.body.errors!)).toEqual(['/initialRecordTime']);

    // An upgrade without Sec-WebSocket-Key (no client library sends one so) is a 400 too, not a hang.
    const malformed = await rawExchange(
      [
        `GET /epcis/queries/${name}/events?stream=true HTTP/1.1`,
        'Host: localhost',
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Version: 13',
        `X-API-KEY: ${account.key}`,
        '',
        '',
      ].join('\r\n'),
      () => false,
    );
    expect(malformed).toMatch(/^HTTP\/1\.1 400 /);
    expect(malformed).toContain('"code":"epcis-invalid-websocket-handshake"');

    // Without the upgrade, the subscription parameters are named as what they are.
    const plain = await client(account.key).get(`/epcis/queries/${name}/events?stream=true`);
    expect(plain.status).toBe(400);
    expect(plain.body).toMatchObject({
      type: 'epcisException:SubscriptionControlsException',
      code: 'epcis-subscription-needs-websocket',
    });
    expect((await client(account.key).get(`/epcis/queries/${name}/events`)).status).toBe(200);
  });

  it('answers an h2c upgrade offer (HTTP/2-capable clients on plain http) over HTTP/1.1, body and all', async () => {
    const account = await createAccount('socket-h2c');
    const name = nameOf();
    const body = JSON.stringify({ name, query: { EQ_bizStep: 'shipping' } });
    const answer = await rawExchange(
      [
        'POST /epcis/queries HTTP/1.1',
        'Host: localhost',
        'Connection: Upgrade, HTTP2-Settings',
        'Upgrade: h2c',
        'HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA',
        `X-API-KEY: ${account.key}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        '',
        body,
      ].join('\r\n'),
      (text) => text.includes(name),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect((await client(account.key).get(`/epcis/queries/${name}`)).status).toBe(200);
  });

  it('releases a socket once its client closes it', async () => {
    const account = await createAccount('socket-release');
    const name = await namedQuery(account, { EQ_bizStep: 'shipping' });
    // The sockets of the tests before, cut by their clients, are released.
    await eventually(async () => (await openSockets('stream')) === 0);
    const subscriber = await subscribe(account.key, name, 'stream=true');
    expect(await openSockets('stream')).toBe(1);
    await subscriber.close();
    await eventually(async () => (await openSockets('stream')) === 0);
    // A capture after the close finds no socket to report to, and nothing fails for it.
    const job = await capture(
      account.key,
      epcisDocument([objectEvent({ bizStep: 'shipping', eventTime: nextTime() })]),
    );
    expect(job.success).toBe(true);
    expect(subscriber.messages).toHaveLength(0);

    // A client gone without closing (it answers no ping: its network is cut) is cut by the server.
    const silent = await subscribe(account.key, name, 'stream=true', false);
    const cut = new Promise<void>((resolve) => silent.ws.once('close', () => resolve()));
    expect(await openSockets('stream')).toBe(1);
    await cut;
    await eventually(async () => (await openSockets('stream')) === 0);
  });

  it('closes its sockets (1012) when the API’s batch announcements drop, and takes new ones once they are back', async () => {
    const account = await createAccount('socket-listen-lost');
    const name = await namedQuery(account, { EQ_bizStep: 'shipping' });
    const subscriber = await subscribe(account.key, name, 'stream=true');
    const closed = new Promise<number>((resolve) => subscriber.ws.once('close', (code) => resolve(code)));
    // The API's LISTEN connection ends, as it would when PostgreSQL restarts (only the API's: other
    // tests' listeners are left alone).
    const { apiPid } = readLiveState(process.env.STACK_DIR!)!;
    const ended = await sql().query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [listenerName(apiPid!)],
    );
    expect(ended.rowCount).toBe(1);
    expect(await closed).toBe(1012);

    // Reconnecting (the listener is back within its backoff) with initialRecordTime misses nothing.
    const missed = objectEvent({ bizStep: 'shipping', eventTime: nextTime() });
    const after = new Date(Date.now() - 1000).toISOString();
    await capture(account.key, epcisDocument([missed]));
    let again: Subscriber | undefined;
    await eventually(async () => {
      again = await subscribe(account.key, name, `stream=true&initialRecordTime=${encodeURIComponent(after)}`).catch(
        () => undefined,
      );
      return again !== undefined;
    }, 10_000);
    const [report] = await again!.waitFor(1, 5000);
    expect(eventIdsOf(report)).toEqual([missed.eventID]);
  });

  it('reports on a schedule: the first run from initialRecordTime, then what was recorded since the last run', async () => {
    const account = await createAccount('socket-schedule');
    const before = new Date(Date.now() - 1000).toISOString();
    const first = objectEvent({ bizStep: 'shipping', eventTime: nextTime() });
    await capture(account.key, epcisDocument([first]));
    const name = await namedQuery(account, { EQ_bizStep: 'shipping' });
    const subscriber = await subscribe(account.key, name, `second=0/2&initialRecordTime=${encodeURIComponent(before)}`);
    expect(await openSockets('schedule')).toBe(1);
    const [report] = await subscriber.waitFor(1, 5000);
    expect(gs1SchemaIssues(report)).toEqual([]);
    expect(eventIdsOf(report)).toEqual([first.eventID]);

    const second = objectEvent({ bizStep: 'shipping', eventTime: nextTime() });
    await capture(account.key, epcisDocument([second, objectEvent({ bizStep: 'receiving', eventTime: nextTime() })]));
    const [, next] = await subscriber.waitFor(2, 5000);
    expect(eventIdsOf(next)).toEqual([second.eventID]);
    // Nothing new: no report without reportIfEmpty.
    await new Promise((r) => setTimeout(r, 2500));
    expect(subscriber.messages).toHaveLength(2);

    const empty = await subscribe(account.key, name, 'second=0/1&reportIfEmpty=true');
    const [nothing] = await empty.waitFor(1, 3000);
    expect(eventIdsOf(nothing)).toEqual([]);
    expect(nothing.epcisBody.queryResults.queryName).toBe(name);
  });
});
