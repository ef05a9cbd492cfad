import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Koa from 'koa';
import pino from 'pino';
import type { AppCustom, AppState, Deps } from '../../api/context';
import { ERRORS, problemType } from '../../contract/error-catalogue';
import { ApiError } from '../../api/errors';
import { errorHandler } from '../../api/middleware/error-handler';
import { requestContext } from '../../api/middleware/request-context';
import { PROJECT_ROOT } from '../../platform/config';

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
        code: 'unexpected-error',
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

describe('problems outside the catalogue', () => {
  it('are answered as an unexpected error and logged: every problem a client gets has a code docs/errors.md lists', async () => {
    const lines: string[] = [];
    const app = new Koa<AppState, AppCustom>();
    app.context.deps = {
      logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
    } as unknown as Deps;
    app
      .use(requestContext())
      .use(errorHandler())
      .use(() => {
        throw new ApiError(404, { type: problemType(404), code: 'no-such-code', title: 'Gone.', status: 404 }, true);
      });
    const server = app.listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/anything`);
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ code: 'unexpected-error', status: 500 });
      expect(lines.map((l) => JSON.parse(l).msg)).toContain('unhandled error');
    } finally {
      server.close();
    }
  });

  it('has no entry the product never raises', () => {
    const sources = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const file = path.join(dir, e.name);
        if (e.isDirectory()) return sources(file);
        // OpenAPI declarations only describe problems; the catalogue names them.
        return /\.ts$/.test(e.name) && !/openapi|components|error-catalogue/.test(file) ? [file] : [];
      });
    // Use cases and the domain raise problems too (an EPCIS query's refusals), the API answers them.
    const code = ['api', 'usecases', 'domain', 'batches']
      .flatMap((dir) => sources(path.join(PROJECT_ROOT, dir)))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    expect(Object.keys(ERRORS).filter((name) => !code.includes(`'${name}'`))).toEqual([]);
  });
});
