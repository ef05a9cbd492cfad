import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pino from 'pino';
import type { AppCustom, AppState, Deps } from '../../api/context';
import { errorHandler } from '../../api/middleware/error-handler';
import { requestContext } from '../../api/middleware/request-context';

/** The 500 path needs a handler that fails; the real middleware runs in a real Koa server. */
describe('unexpected errors', () => {
  it('become a 500 problem with a traceId, logged with the stack, no stack in the body', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const app = new Koa<AppState, AppCustom>();
    app.context.deps = { logger } as unknown as Deps;
    app
      .use(requestContext())
      .use(errorHandler())
      .use(() => {
        throw new Error('database exploded at line 42');
      });
    const server = app.listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/anything`);
      const body = (await response.json()) as Record<string, unknown>;
      expect(response.status).toBe(500);
      expect(body).toEqual({
        type: 'https://tools.ietf.org/html/rfc9110#section-15.6.1',
        title: 'An unexpected error occurred.',
        status: 500,
        traceId: response.headers.get('x-request-id'),
      });
      expect(JSON.stringify(body)).not.toContain('exploded');
      const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
      expect(logged.err.stack).toContain('database exploded at line 42');
      expect(logged.requestId).toBe(body.traceId);
    } finally {
      server.close();
    }
  });
});
