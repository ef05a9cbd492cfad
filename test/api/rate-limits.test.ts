import { request as httpRequest } from 'node:http';
import { parseList } from 'structured-headers';
import { createAccount } from '../factories/accounts';
import { apikey } from '../../cli/apikey';
import { command } from '../helpers/cli';
import { sql } from '../helpers/db';
import { request, type Response } from '../helpers/http';
import { startReplica, stopReplica, type Replica } from '../helpers/replica';

const limit = (name: string, ...args: string[]) => command(apikey, 'limit', '--account', name, ...args);

/**
 * A RateLimit-Policy or RateLimit field read as draft-ietf-httpapi-ratelimit-headers defines it: a
 * Structured Field List (RFC 9651) of Items, each a String naming a policy, with its parameters.
 * A field that is no such List throws, whatever its text looks like.
 */
function rateLimitField(response: Response, name: 'ratelimit-policy' | 'ratelimit') {
  const value = response.headers.get(name);
  if (value === null) throw new Error(`no ${name} field`);
  return Object.fromEntries(
    parseList(value).map(([policy, parameters]) => {
      if (typeof policy !== 'string') throw new Error(`${name}: the policy ${String(policy)} is no String`);
      return [policy, Object.fromEntries(parameters)];
    }),
  );
}

const statuses = (responses: Response[]) => responses.map((r) => r.status);

const WRONG_KEY = 'trc_0000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
/** A fresh address of TEST-NET-3 (RFC 5737) each call: a client no other test has counted. */
let lastTestNet = 0;
const testNetAddress = () => `203.0.113.${++lastTestNet}`;

describe('fair use: rate limits per API key and per client address', () => {
  let replica: Replica | undefined;

  beforeAll(async () => {
    // The second replica counts wrong keys strictly, and trusts loopback's 127.0.0.1 as a reverse proxy
    // (127.0.0.2 is then a client of its own); the key limits come from the accounts (the CLI).
    replica = await startReplica({ FAILED_KEYS_PER_MINUTE: '3', TRUSTED_PROXIES: '127.0.0.1' });
  }, 120_000);

  afterAll(() => stopReplica(replica));

  it('a key past its rate gets 429 with Retry-After and the RateLimit fields, in the problem shape; /epcis in its own', async () => {
    const account = await createAccount();
    expect(await limit(account.name, '--per-second', '2')).toContain('2 requests a second');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => request('GET', '/Integration/Account', { key: account.key })),
    );
    expect(statuses(answers)).toContain(429);
    expect(
      statuses(answers)
        .filter((s) => s !== 429)
        .every((s) => s === 200),
    ).toBe(true);
    const ok = answers.find((r) => r.status === 200)!;
    expect(rateLimitField(ok, 'ratelimit-policy')).toEqual({ 'per-key': { q: 2, w: 1 } });
    expect(rateLimitField(ok, 'ratelimit')).toEqual({ 'per-key': { r: expect.any(Number), t: 1 } });
    expect([0, 1]).toContain(rateLimitField(ok, 'ratelimit')['per-key'].r);

    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(rateLimitField(refused, 'ratelimit-policy')).toEqual({ 'per-key': { q: 2, w: 1 } });
    expect(rateLimitField(refused, 'ratelimit')).toEqual({
      'per-key': { r: 0, t: Number(refused.headers.get('retry-after')) },
    });
    expect(refused.body).toEqual({
      type: 'https://tools.ietf.org/html/rfc6585#section-4',
      code: 'too-many-requests',
      title: 'Too many requests with this API key.',
      detail: expect.stringMatching(
        /^Too many requests with this API key: it may make 2 a second; send again after \d+ s \(Retry-After\)\.$/,
      ),
      status: 429,
      traceId: expect.any(String),
    });

    const epcis = await Promise.all(
      Array.from({ length: 8 }, () => request('GET', '/epcis/events', { key: account.key })),
    );
    const epcisRefused = epcis.find((r) => r.status === 429);
    expect(epcisRefused?.body).toMatchObject({
      type: 'epcisException:ImplementationException',
      code: 'epcis-too-many-requests',
      status: 429,
      title: expect.stringContaining('Too many requests'),
    });
    expect(epcisRefused?.headers.get('retry-after')).toMatch(/^\d+$/);

    // Health, metrics, docs and the pages are not limited, whatever key comes along.
    for (const path of ['/healthz', '/openapi.json', '/metrics', '/docs']) {
      const answers = await Promise.all(Array.from({ length: 6 }, () => request('GET', path, { key: account.key })));
      expect(statuses(answers).filter((s) => s === 429)).toEqual([]);
    }

    // Back to the service's limits (the test stack's are high).
    expect(await limit(account.name, '--default')).toContain("the service's limits");
    const freed = await Promise.all(
      Array.from({ length: 8 }, () => request('GET', '/Integration/Account', { key: account.key })),
    );
    expect(statuses(freed).every((s) => s === 200)).toBe(true);
    expect(rateLimitField(freed[0], 'ratelimit-policy')).toEqual({
      'per-key': { q: Number(process.env.RATE_LIMIT_PER_SECOND), w: 1 },
      burst: { q: Number(process.env.RATE_LIMIT_BURST), w: 60 },
    });
  });

  it('the operator CLI refuses a limit that is not a whole number, naming the option', async () => {
    await expect(limit('nobody-there', '--per-second', '1')).rejects.toThrow('No account named nobody-there');
    const account = await createAccount();
    await expect(limit(account.name, '--per-second', '0')).rejects.toThrow(
      '--per-second must be a whole number from 1 to 1000000 (got "0")',
    );
  });

  it('two API processes share one budget per key (the counters are in PostgreSQL)', async () => {
    const account = await createAccount();
    const burst = 10;
    await limit(account.name, '--per-second', '1', '--burst', String(burst));
    const started = Date.now();
    const answers: { replica: number; status: number }[] = [];
    for (let i = 0; i < 30; i++) {
      const second = i % 2 === 1;
      const response = await request('GET', '/Integration/Account', {
        key: account.key,
        baseUrl: second ? replica!.url : undefined,
      });
      answers.push({ replica: second ? 2 : 1, status: response.status });
    }
    const seconds = Math.ceil((Date.now() - started) / 1000);
    const allowed = answers.filter((a) => a.status === 200);
    // One shared budget: the burst once, plus one a second for each second the loop ran (and the one it
    // started in). Counted apart, each process would allow its own burst: 2 × 10 and more.
    expect(allowed.length).toBeLessThanOrEqual(burst + seconds + 1);
    expect(allowed.length).toBeGreaterThanOrEqual(burst);
    expect(answers.filter((a) => a.status === 429).map((a) => a.replica)).toEqual(expect.arrayContaining([1, 2]));
    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
  });

  it('counts without waiting for a disk flush: the counters are an unlogged table, which writes no WAL', async () => {
    const { rows } = await sql().query<{ persistence: string }>(
      "SELECT relpersistence AS persistence FROM pg_class WHERE oid = 'rate_limit_counters'::regclass",
    );
    expect(rows).toEqual([{ persistence: 'u' }]);
  });

  it('an address that sent too many wrong keys gets 429 for its wrong keys; a valid key from it is served', async () => {
    const account = await createAccount();
    const answers: Response[] = [];
    for (let i = 0; i < 6; i++)
      answers.push(await request('GET', '/Integration/Account', { key: WRONG_KEY, baseUrl: replica!.url }));
    const codes = statuses(answers);
    expect(codes).toContain(429);
    // 401 until the address has used its three wrong keys a minute (other tests' wrong keys count too), then 429.
    expect(codes.slice(codes.indexOf(429)).every((s) => s === 429)).toBe(true);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.body).toMatchObject({
      status: 429,
      code: 'too-many-failed-keys',
      title: expect.stringContaining('wrong API key from this address'),
    });
    expect(rateLimitField(refused, 'ratelimit-policy')).toEqual({ 'failed-keys': { q: 3, w: 60 } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(rateLimitField(refused, 'ratelimit')).toEqual({
      'failed-keys': { r: 0, t: Number(refused.headers.get('retry-after')) },
    });

    // Failures only: the same address with a valid key is served, and its wrong keys are still refused.
    const valid = await request('GET', '/Integration/Account', { key: account.key, baseUrl: replica!.url });
    expect(valid.status).toBe(200);
    expect(rateLimitField(valid, 'ratelimit-policy')).toHaveProperty('per-key');
    expect((await request('GET', '/Integration/Account', { key: WRONG_KEY, baseUrl: replica!.url })).status).toBe(429);
    // The test stack's API allows many more wrong keys a minute: the same count, its own limit.
    expect((await request('GET', '/Integration/Account', { key: WRONG_KEY })).status).toBe(401);
  });

  it('behind a trusted proxy, each client is counted at its own address (X-Forwarded-For)', async () => {
    const account = await createAccount();
    const flooder = testNetAddress();
    const neighbour = testNetAddress();
    const via = (client: string, key: string) =>
      request('GET', '/Integration/Account', { key, baseUrl: replica!.url, headers: { 'X-Forwarded-For': client } });
    const flood = [];
    for (let i = 0; i < 8; i++) flood.push((await via(flooder, WRONG_KEY)).status);
    expect(flood.slice(0, 3)).toEqual([401, 401, 401]);
    expect(flood.slice(3).every((s) => s === 429)).toBe(true);

    // The neighbour behind the same proxy: its own wrong key is a 401 (its own count), its valid key a 200.
    expect((await via(neighbour, WRONG_KEY)).status).toBe(401);
    expect((await via(neighbour, account.key)).status).toBe(200);
    // The flooder's own valid key: never refused for the wrong ones.
    expect((await via(flooder, account.key)).status).toBe(200);
    // A chain: the address the trusted proxy saw (the rightmost untrusted one) counts, not what the client wrote.
    expect((await via(`${neighbour}, ${flooder}`, WRONG_KEY)).status).toBe(429);
  });

  it('X-Forwarded-For from a peer that is not a trusted proxy is ignored', async () => {
    // 127.0.0.2 is not in TRUSTED_PROXIES: each new X-Forwarded-For it sends is still the one address.
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push(await fromPeer('127.0.0.2', WRONG_KEY, testNetAddress()));
    expect(answers.slice(0, 3)).toEqual([401, 401, 401]);
    expect(answers.slice(3).every((s) => s === 429)).toBe(true);
    const account = await createAccount();
    expect(await fromPeer('127.0.0.2', account.key, testNetAddress())).toBe(200);
  });

  /** A GET /Integration/Account sent from the given local address (a client other than 127.0.0.1). */
  function fromPeer(localAddress: string, key: string, forwardedFor: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        `${replica!.url}/Integration/Account`,
        { localAddress, headers: { 'X-API-KEY': key, 'X-Forwarded-For': forwardedFor } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }
});
