import { readFileSync } from 'node:fs';
import net from 'node:net';
import { LIMITS } from '../../domain/schemas/limits';
import { MAX_BODY_BYTES } from '../../api/routes/documents';
import { MAX_IMPORT_BODY_BYTES } from '../../api/routes/imports/receive';
import { createAccount, type TestAccount } from '../factories/accounts';
import { apiUrl, request } from '../helpers/http';
import { rawRequest, type RawAnswer } from '../helpers/raw-http';

const MB = 1024 * 1024;
/**
 * What a client gets into its socket that the server never read: the kernel's buffers on both ends of a
 * loopback connection (a few MB here). A server that reads a refused body to its end lets the client
 * send all of it.
 */
const UNREAD_SLACK = 16 * MB;

/** The largest a TCP buffer of this kernel grows to (`tcp_rmem` / `tcp_wmem`'s third figure), or `fallback`. */
function tcpBufferMax(kind: 'rmem' | 'wmem', fallback: number): number {
  try {
    const max = Number(readFileSync(`/proc/sys/net/ipv4/tcp_${kind}`, 'utf8').trim().split(/\s+/)[2]);
    return Number.isFinite(max) && max > 0 ? max : fallback;
  } catch {
    return fallback;
  }
}
/**
 * The same after a body read up to its limit before the cut: over a long transfer Linux grows the
 * receive buffer up to tcp_rmem's maximum (32 MB on some machines; a CI run once saw 16 MB exceeded), and
 * the server reads up to 1 MiB more while it waits for the client to close. A server that never cuts a
 * body sent forever never answers.
 */
const CUT_SLACK = Math.max(UNREAD_SLACK, tcpBufferMax('rmem', 8 * MB) + tcpBufferMax('wmem', 8 * MB) + 2 * MB);
const WRONG_KEY = 'trc_0000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

let account: TestAccount;
beforeAll(async () => {
  account = await createAccount('edges');
});

const json = { 'Content-Type': 'application/json' };

/** Answered with `status`, told the connection closes, and closed by the server. */
function expectRefusedAndClosed(answer: RawAnswer, status: number): void {
  expect({ status: answer.status, connection: answer.headers.connection, closed: answer.closed }).toEqual({
    status,
    connection: 'close',
    closed: true,
  });
}

describe('a body declared over the limit is a 413 before any of it is read', () => {
  it.each([
    ['POST /Integration/Events (JSON)', '/Integration/Events', json, LIMITS.jsonBodyBytes],
    ['POST /epcis/capture (XML)', '/epcis/capture', { 'Content-Type': 'application/xml' }, LIMITS.jsonBodyBytes],
    [
      'POST /Integration/Imports (multipart)',
      '/Integration/Imports',
      { 'Content-Type': 'multipart/form-data; boundary=x' },
      MAX_IMPORT_BODY_BYTES,
    ],
  ])('%s: the head alone is answered', async (_name, path, headers, limit) => {
    const answer = await rawRequest({
      baseUrl: apiUrl(),
      path,
      headers: { ...headers, 'X-API-KEY': account.key },
      body: { declared: limit + 1, send: 0 },
    });
    expectRefusedAndClosed(answer, 413);
    expect(answer.answeredAfterMs).toBeLessThan(3000);
  });

  it('4 GB declared (past what a 32-bit length holds) with a client that keeps sending: 413, and little of it read', async () => {
    const answer = await rawRequest({
      baseUrl: apiUrl(),
      path: '/Integration/Events',
      headers: { ...json, 'X-API-KEY': account.key },
      body: { declared: 4 * 1024 * MB },
    });
    expectRefusedAndClosed(answer, 413);
    expect(JSON.parse(answer.text)).toMatchObject({
      status: 413,
      detail: `The request body is too large: at most ${LIMITS.jsonBodyBytes / MB} MB.`,
    });
    expect(answer.bodyBytesWritten).toBeLessThan(UNREAD_SLACK);
  });
});

describe('a request without a valid key is answered and its connection closed, its body unread', () => {
  it('eight clients sending 24 MB with no key or a wrong one get 400 or 401, and none gets far', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        rawRequest({
          baseUrl: apiUrl(),
          path: '/Integration/Events',
          headers: { ...json, ...(i % 2 ? { 'X-API-KEY': WRONG_KEY } : {}) },
          body: { declared: 24 * MB },
        }),
      ),
    );
    answers.forEach((answer, i) => expectRefusedAndClosed(answer, i % 2 ? 401 : 400));
    for (const answer of answers) expect(answer.bodyBytesWritten).toBeLessThan(UNREAD_SLACK);
    expect(JSON.parse(answers[0].text)).toMatchObject({ status: 400, errors: { 'X-API-KEY': expect.any(Array) } });
    expect(JSON.parse(answers[1].text)).toMatchObject({ status: 401, title: 'The API key is not valid.' });
  });

  it("a client still writing its body when the answer comes (Node's fetch) reads the answer", async () => {
    const big = () => {
      const form = new FormData();
      form.set('file', new Blob([Buffer.alloc(22 * MB, 'x')]), 'big.csv');
      return form;
    };
    const noKey = await request('POST', '/Integration/Imports', { body: big() });
    expect(noKey.status).toBe(400);
    expect(noKey.headers.get('connection')).toBe('close');
    const tooLarge = await request('POST', '/Integration/Imports', { key: account.key, body: big() });
    expect(tooLarge.status).toBe(413);
  });

  it('4 GB declared without a key: answered at once, connection closed', async () => {
    const answer = await rawRequest({
      baseUrl: apiUrl(),
      path: '/Integration/Documents',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
      body: { declared: 4 * 1024 * MB },
    });
    expectRefusedAndClosed(answer, 400);
    expect(answer.bodyBytesWritten).toBeLessThan(UNREAD_SLACK);
  });
});

describe('a chunked body is cut at the limit', () => {
  it.each([
    ['JSON', '/Integration/Events', json],
    ['an XML capture', '/epcis/capture', { 'Content-Type': 'application/xml' }],
  ])('%s: 413 once past the limit, connection closed, nothing more read', async (_name, path, headers) => {
    const answer = await rawRequest({
      baseUrl: apiUrl(),
      path,
      headers: { ...headers, 'X-API-KEY': account.key },
      body: { chunked: true, send: Infinity },
    });
    expectRefusedAndClosed(answer, 413);
    expect(answer.bodyBytesWritten).toBeLessThan(LIMITS.jsonBodyBytes + CUT_SLACK);
  });

  it('a document upload: 413 once past the limit, connection closed, nothing more read', async () => {
    const answer = await rawRequest({
      baseUrl: apiUrl(),
      path: '/Integration/Documents',
      headers: {
        'X-API-KEY': account.key,
        'Content-Type': 'multipart/form-data; boundary=x',
        'X-Document-Title': 'endless',
        'X-Document-Type': 'Other',
        'X-Document-Type-Name': 'test',
      },
      body: { chunked: true, send: Infinity },
    });
    expectRefusedAndClosed(answer, 413);
    expect(answer.bodyBytesWritten).toBeLessThan(MAX_BODY_BYTES + CUT_SLACK);
  });
});

/**
 * Sends a request's head with Expect: 100-continue, and its body only once told to continue; answers
 * every status line the API sent, in order.
 */
function expectContinue(path: string, headers: Record<string, string>, body: string): Promise<string[]> {
  const { hostname, port } = new URL(apiUrl());
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = '';
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      const before = received;
      received += chunk.toString('latin1');
      if (!before.includes('100 Continue') && received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) socket.write(body);
      // The final answer's body is JSON: its end is the closing brace.
      if (/^HTTP\/1\.1 [2-5]\d\d /m.test(received) && received.trimEnd().endsWith('}')) {
        socket.destroy();
        resolve(received.match(/^HTTP\/1\.1 \d{3}/gm) ?? []);
      }
    });
    const head = Object.entries({ ...headers, Host: 'test', Expect: '100-continue' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST ${path} HTTP/1.1\r\n${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
  });
}

describe('Expect: 100-continue', () => {
  const body = JSON.stringify({ Events: [] });

  it('a request refused before its body is read is answered without asking for the body', async () => {
    expect(await expectContinue('/Integration/Events', json, body)).toEqual(['HTTP/1.1 400']);
    expect(await expectContinue('/Integration/Events', { ...json, 'X-API-KEY': WRONG_KEY }, body)).toEqual([
      'HTTP/1.1 401',
    ]);
  });

  it('a request whose body will be read is told to continue, then answered', async () => {
    const statuses = await expectContinue('/Integration/Events', { ...json, 'X-API-KEY': account.key }, body);
    expect(statuses[0]).toBe('HTTP/1.1 100');
    expect(statuses).toHaveLength(2);
    expect(statuses[1]).toMatch(/^HTTP\/1\.1 [24]\d\d$/);
  });
});

describe('a body read in full keeps its connection', () => {
  it('a keyed JSON request, accepted or refused by its rules, is answered keep-alive', async () => {
    for (const body of [{ Events: [] }, { Events: 'no list' }]) {
      const answer = await request('POST', '/Integration/Events', { key: account.key, body });
      expect(answer.status).toBeLessThan(500);
      expect(answer.headers.get('connection')).not.toBe('close');
    }
  });
});
