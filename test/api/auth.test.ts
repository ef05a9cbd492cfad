import http from 'node:http';
import { ApiKey } from '../../db/models';
import { createAccount } from '../factories/accounts';
import { apiUrl, request } from '../helpers/http';

describe('authentication (SPEC.md, Authentication 6 and 7)', () => {
  it('a missing X-API-KEY gets the 400 problem-details body', async () => {
    const response = await request('GET', '/Integration/Account');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
      code: 'missing-api-key',
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { 'X-API-KEY': ['The apiKey field is required.'] },
      traceId: expect.any(String),
    });
  });

  it('an empty X-API-KEY is treated as missing', async () => {
    const response = await request('GET', '/Integration/Account', { key: '   ' });
    expect(response.status).toBe(400);
    expect(response.body.errors['X-API-KEY']).toEqual(['The apiKey field is required.']);
  });

  it.each([['garbage'], ['trc_0000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']])(
    'an unknown key %s gets 401',
    async (key) => {
      const response = await request('GET', '/Integration/Account', { key });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        type: 'https://tools.ietf.org/html/rfc9110#section-15.5.2',
        code: 'invalid-api-key',
        title: 'The API key is not valid.',
        status: 401,
        traceId: expect.any(String),
      });
    },
  );

  it('a valid key reaches its own account', async () => {
    const account = await createAccount();
    const response = await request('GET', '/Integration/Account', { key: account.key });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: account.id, name: account.name });
  });

  it('a key with its secret altered is refused even though its lookup part matches', async () => {
    const account = await createAccount();
    const tampered = account.key.slice(0, -1) + (account.key.endsWith('A') ? 'B' : 'A');
    expect((await request('GET', '/Integration/Account', { key: tampered })).status).toBe(401);
  });

  it('a revoked key gets 401', async () => {
    const account = await createAccount();
    await ApiKey.update({ revokedAt: new Date() }, { where: { id: account.keyId } });
    expect((await request('GET', '/Integration/Account', { key: account.key })).status).toBe(401);
  });

  it('the traceId is the request id, echoed in X-Request-Id', async () => {
    const response = await request('GET', '/Integration/Account', { headers: { 'X-Request-Id': 'abc-123' } });
    expect(response.headers.get('x-request-id')).toBe('abc-123');
    expect(response.body.traceId).toBe('abc-123');
  });
});

describe('health', () => {
  it('GET /healthz answers without a key', async () => {
    const response = await request('GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('GET /readyz checks PostgreSQL, Temporal and that a worker polls', async () => {
    const response = await request('GET', '/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'ok',
      checks: { database: 'ok', temporal: 'ok', worker: 'ok', interactiveWorker: 'ok', deliveries: 'ok' },
    });
  });
});

describe('errors at the edge', () => {
  it('an unknown route is a 404 problem', async () => {
    const account = await createAccount();
    const response = await request('GET', '/Integration/Nope', { key: account.key });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      status: 404,
      code: 'no-route',
      detail: 'No route for GET /Integration/Nope.',
      traceId: expect.any(String),
    });
  });

  it('a method another route of the path takes is a 405 problem with an Allow header', async () => {
    const response = await request('DELETE', '/healthz');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
    expect(response.body).toMatchObject({
      status: 405,
      code: 'method-not-allowed',
      detail: 'Method DELETE is not allowed on /healthz.',
    });
  });

  it('a method no route uses (TRACE) is a 405 problem too, not a 501', async () => {
    // fetch refuses to send TRACE.
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${apiUrl()}/healthz`, { method: 'TRACE' }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(405);
    expect(JSON.parse(body)).toMatchObject({
      status: 405,
      code: 'method-not-allowed',
      detail: 'Method TRACE is not allowed on /healthz.',
    });
  });

  it('malformed JSON is a 400 with a message, not a 500', async () => {
    const account = await createAccount();
    const response = await request('POST', '/Integration/Locations', {
      key: account.key,
      body: '{"Locations": [',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'malformed-json', title: 'The request body is not valid JSON.' });
    expect(response.body.detail).toMatch(/^The request body is not valid JSON: /);
  });
});

describe('the NUL character', () => {
  it('in a query parameter is a 400 naming the parameter, never a database error', async () => {
    const account = await createAccount();
    const response = await request('GET', '/Integration/Inventory?LocationIds=a%00b', { key: account.key });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual({ LocationIds: ['LocationIds must not contain the NUL character (U+0000).'] });
  });

  it('in a JSON body is a 400 naming the field, before any batch starts', async () => {
    const account = await createAccount();
    const response = await request('POST', '/Integration/Products', {
      key: account.key,
      body: { Products: [{ Id: 'P\u00001', Details: { Name: 'x' } }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual({
      'Products[0].Id': ['Products[0].Id must not contain the NUL character (U+0000).'],
    });
  });
});
