import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import pino from 'pino';
import type { AppCustom, AppState, Deps } from '../../api/context';
import { problem } from '../../api/errors';
import { errorHandler } from '../../api/middleware/error-handler';
import { requestContext } from '../../api/middleware/request-context';

/**
 * The request log line, read from a real Koa server with the app's middleware and a router shaped like
 * api/routes (a router-level key check in front of a parameterised route): the line must name the
 * route template even when that check answers first.
 */
describe('the request log line', () => {
  const lines: Record<string, unknown>[] = [];
  let server: ReturnType<Koa['listen']>;
  let base: string;

  beforeAll(() => {
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const app = new Koa<AppState, AppCustom>();
    app.context.deps = { logger } as unknown as Deps;
    const secured = new Router<AppState, AppCustom>();
    secured.use(async (ctx, next) => {
      if (ctx.get('X-API-KEY') !== 'good') throw problem('invalid-api-key');
      await next();
    });
    secured.get('/things/:id', (ctx) => {
      ctx.body = { id: ctx.params.id };
    });
    const router = new Router<AppState, AppCustom>();
    router.use(secured.routes(), secured.allowedMethods());
    app.use(requestContext()).use(errorHandler()).use(router.routes()).use(router.allowedMethods());
    server = app.listen(0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  const lastRequestLine = () => lines.filter((l) => l.msg === 'request').at(-1)!;

  it.each([
    ['good', 200],
    ['bad', 401],
  ])('with key %s: method, route template, status, duration and the request id sent', async (key, status) => {
    const response = await fetch(`${base}/things/T-42`, {
      headers: { 'X-API-KEY': key, 'X-Request-Id': `req-${key}` },
    });
    expect(response.status).toBe(status);
    expect(response.headers.get('x-request-id')).toBe(`req-${key}`);
    expect(lastRequestLine()).toMatchObject({
      requestId: `req-${key}`,
      method: 'GET',
      route: '/things/:id',
      status,
      durationMs: expect.any(Number),
    });
  });

  it('a request without X-Request-Id gets a generated one, echoed and logged; unknown paths log no raw URL as route', async () => {
    const response = await fetch(`${base}/elsewhere/123`);
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(((await response.json()) as { traceId: string }).traceId).toBe(id);
    expect(lastRequestLine()).toMatchObject({ requestId: id, route: '(unmatched)', status: 404 });
  });
});
