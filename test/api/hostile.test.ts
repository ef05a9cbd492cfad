import { createAccount, type TestAccount } from '../factories/accounts';
import { commission, instance, uid } from '../factories/events';
import { sql } from '../helpers/db';
import { apiUrl } from '../helpers/http';

/**
 * Requests an attacker or a careless integrator sends. Every one is answered with a clear 4xx (or
 * stored as plain data) at once: never a 5xx, never a request left to time out. Sent raw with fetch,
 * since several are not JSON at all.
 */
interface Hostile {
  name: string;
  method?: string;
  path?: string;
  /** A JS value is sent as JSON; a string or Buffer as it is. */
  body?: unknown;
  contentType?: string | null;
  key?: 'valid' | 'none' | 'wrong';
  /** The status expected, and a text the answer must contain (the field or the reason). */
  status: number;
  says?: string;
}

const event = () => commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('SALMON', uid('LOT'), 1));
const withEvent = (change: (e: Record<string, unknown>) => Record<string, unknown>) => ({
  Events: [change(event() as unknown as Record<string, unknown>)],
});
const withInstance = (change: Record<string, unknown>) =>
  withEvent((e) => ({ ...e, ProductInstances: [{ ...(e.ProductInstances as object[])[0], ...change }] }));
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const big = (bytes: number) => 'x'.repeat(bytes);

const CORPUS: Hostile[] = [
  {
    name: 'JSON nested 10,000 levels deep',
    body: `{"Events": ${nested(10_000)}}`,
    status: 400,
    says: 'nested too deeply',
  },
  {
    name: 'JSON nested 10,000 levels deep, without a key',
    body: `{"Events": ${nested(10_000)}}`,
    key: 'none',
    status: 400,
    says: 'X-API-KEY',
  },
  {
    name: 'a lone surrogate in a lot number',
    body: '{"Events":[{"$type":"commission","Id":"S-1","LotSerial":"\\ud800"}]}',
    status: 400,
    says: 'surrogate',
  },
  { name: 'a lone surrogate in a key', body: '{"Events":[],"\\udc00":1}', status: 400, says: 'surrogate' },
  { name: 'Quantity 1e21', body: withInstance({ Quantity: 1e21 }), status: 400, says: 'Quantity' },
  {
    name: 'Quantity 1e999 (Infinity once parsed)',
    body: JSON.stringify(withInstance({ Quantity: 1 })).replace('"Quantity":1', '"Quantity":1e999'),
    status: 400,
    says: 'Quantity',
  },
  { name: 'Quantity as a string', body: withInstance({ Quantity: '5' }), status: 400, says: 'Quantity' },
  { name: 'a negative Quantity', body: withInstance({ Quantity: -1 }), status: 400, says: 'Quantity' },
  {
    name: 'a 3 MB PurchaseOrder',
    body: withEvent((e) => ({ ...e, PurchaseOrder: big(3_000_000) })),
    status: 400,
    says: 'PurchaseOrder',
  },
  { name: 'a 5 MB LotSerial', body: withInstance({ LotSerial: big(5_000_000) }), status: 400, says: 'LotSerial' },
  {
    name: 'a 20,000-character string in a free-form object',
    body: withEvent((e) => ({ ...e, CustomProperties: [{ note: big(20_000) }] })),
    status: 400,
    says: 'CustomProperties[0].note',
  },
  {
    name: 'a lot number of 201 characters',
    body: withInstance({ LotSerial: big(201) }),
    status: 400,
    says: 'LotSerial',
  },
  { name: '1,001 events', body: { Events: Array.from({ length: 1001 }, event) }, status: 400, says: 'Events' },
  {
    name: 'a 24 MB body without a key',
    body: `{"Events":["${big(24 * 1024 * 1024)}"]}`,
    key: 'none',
    status: 400,
    says: 'X-API-KEY',
  },
  { name: 'a 24 MB body with a wrong key', body: `{"Events":["${big(24 * 1024 * 1024)}"]}`, key: 'wrong', status: 401 },
  { name: 'a body over 25 MB', body: `{"Events":["${big(26 * 1024 * 1024)}"]}`, status: 413 },
  { name: 'text/plain', body: '{"Events":[]}', contentType: 'text/plain', status: 415, says: 'application/json' },
  { name: 'XML', body: '<Events/>', contentType: 'application/xml', status: 415, says: 'application/json' },
  {
    name: 'a form',
    body: 'Events=1',
    contentType: 'application/x-www-form-urlencoded',
    status: 415,
    says: 'application/json',
  },
  {
    name: 'no Content-Type',
    body: Buffer.from('{"Events":[]}'),
    contentType: null,
    status: 415,
    says: 'application/json',
  },
  { name: 'a __proto__ key', body: '{"Events":[],"__proto__":{"admin":true}}', status: 400, says: '__proto__' },
  {
    name: 'a constructor.prototype key',
    body: '{"Events":[],"constructor":{"prototype":{"admin":true}}}',
    status: 400,
    says: '__proto__',
  },
  {
    name: 'NUL in a body string',
    body: withEvent((e) => ({ ...e, PurchaseOrder: 'a\u0000b' })),
    status: 400,
    says: 'NUL',
  },
  {
    name: 'NUL in a query parameter',
    method: 'GET',
    path: '/Integration/Inventory?ProductIds=a%00b',
    status: 400,
    says: 'NUL',
  },
  { name: 'malformed JSON', body: '{"Events": [', status: 400, says: 'not valid JSON' },
  { name: 'a JSON array instead of an object', body: '[]', status: 400 },
  { name: 'JSON null', body: 'null', status: 400 },
  { name: 'Events as a string', body: { Events: 'x' }, status: 400, says: 'Events' },
  {
    name: 'path traversal in a document id',
    method: 'GET',
    path: '/Integration/Documents/..%2F..%2F..%2Fetc%2Fpasswd',
    status: 404,
  },
  {
    name: 'path traversal in a document id, content',
    method: 'GET',
    path: '/Integration/Documents/..%2F..%2Fetc%2Fpasswd/content',
    status: 404,
  },
  {
    name: 'a 1,001-location list',
    method: 'POST',
    path: '/Integration/Locations',
    body: { Locations: Array.from({ length: 1001 }, () => ({})) },
    status: 400,
    says: 'Locations',
  },
  {
    name: '5,000 unknown fields in one event',
    body: withEvent((e) => ({ ...e, ...Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`Field${i}`, 1])) })),
    status: 400,
    says: 'Events[0].Field999 is not a field',
  },
  {
    name: 'an unknown field named with 10,000 characters',
    body: withEvent((e) => ({ ...e, [big(10_000)]: 1 })),
    status: 400,
    says: 'is not a field',
  },
  { name: 'an Idempotency-Key of 201 characters', body: { Events: [event()] }, status: 400, says: 'Idempotency-Key' },
];

describe('hostile and unusual input', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await createAccount('hostile');
  });

  async function send(h: Hostile) {
    const headers: Record<string, string> = {};
    if ((h.key ?? 'valid') === 'valid') headers['X-API-KEY'] = account.key;
    if (h.key === 'wrong') headers['X-API-KEY'] = 'not-a-key';
    if (h.name.startsWith('an Idempotency-Key')) headers['Idempotency-Key'] = big(201);
    const raw = typeof h.body === 'string' || Buffer.isBuffer(h.body);
    if (h.contentType !== null && h.body !== undefined) headers['Content-Type'] = h.contentType ?? 'application/json';
    const started = Date.now();
    const response = await fetch(`${apiUrl()}${h.path ?? '/Integration/Events'}`, {
      method: h.method ?? 'POST',
      headers,
      body: h.body === undefined ? undefined : raw ? (h.body as string | Buffer) : JSON.stringify(h.body),
    });
    return { status: response.status, text: await response.text(), ms: Date.now() - started };
  }

  it.each(CORPUS.map((h) => [h.name, h] as const))('%s: a clear 4xx, without hanging', async (_, h) => {
    const { status, text, ms } = await send(h);
    expect({ status, says: h.says && text.includes(h.says) ? h.says : text.slice(0, 300) }).toEqual({
      status: h.status,
      says: h.says ?? text.slice(0, 300),
    });
    // Answered, not left waiting for a timeout: how fast is the benches' business (a 24 MB upload on a
    // loaded CI machine took 1,032 ms once, against a bound of one second here).
    expect(ms).toBeLessThan(10_000);
  });

  it('injection-looking text is stored as plain data', async () => {
    const lot = `'; DROP TABLE events; -- <script>alert(1)</script> ${uid('L')}`;
    const body = {
      Events: [
        commission({ location: "DOCK'--", time: '2024-03-01T10:00:00Z' }, instance('SALMON"; SELECT 1', lot, 1)),
      ],
    };
    const response = await fetch(`${apiUrl()}/Integration/Events`, {
      method: 'POST',
      headers: { 'X-API-KEY': account.key, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    const { rows } = await sql().query('SELECT lot_serial FROM event_lines WHERE account_id = $1 AND lot_serial = $2', [
      account.id,
      lot,
    ]);
    expect(rows).toEqual([{ lot_serial: lot }]);
  });

  it('invalid UTF-8 bytes are read as replacement characters, never a 5xx', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"Events":[{"$type":"commission","Id":"'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('"}]}'),
    ]);
    const response = await fetch(`${apiUrl()}/Integration/Events`, {
      method: 'POST',
      headers: { 'X-API-KEY': account.key, 'Content-Type': 'application/json' },
      body: bytes,
    });
    expect(response.status).toBe(400);
  });
});
