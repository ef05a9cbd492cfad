import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppCustom, AppState } from '../context';

const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Request id (X-Request-Id when the caller sends a sane one) and one log line per request. */
export function requestContext(): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    const sent = ctx.get('X-Request-Id');
    const requestId = ACCEPTED_ID.test(sent) ? sent : `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const route = (ctx as { routerPath?: string }).routerPath ?? null;
      ctx.deps.logger.info(
        { requestId, method: ctx.method, path: ctx.path, route, status: ctx.status, durationMs: Math.round(durationMs * 10) / 10, account: ctx.state.account?.name },
        'request',
      );
    }
  };
}
