import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';
import { httpRequestDuration, httpRequests } from '../../platform/metrics';
import type { AppCustom, AppState } from '../context';

const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Label for requests no route matched: one series for all of them, however many URLs scanners try. */
const UNMATCHED_ROUTE = '(unmatched)';

interface MatchedLayer {
  path: string | RegExp;
  methods: string[];
}

/**
 * The route template of the request, from the layers @koa/router matched. Not `routerPath` nor
 * `_matchedRoute`: the router rewrites both as it enters each layer, so when a router-level middleware
 * (the key check) answers first they hold that middleware's pattern, `(?:\/|$)`, not the route's.
 */
export function routeOf(ctx: { method: string; matched?: MatchedLayer[] }): string {
  const route = (ctx.matched ?? []).find(
    (layer) => layer.methods.includes(ctx.method) && typeof layer.path === 'string',
  );
  return route ? String(route.path) : UNMATCHED_ROUTE;
}

/** Request id (X-Request-Id when the caller sends a sane one), one log line and the HTTP metrics per request. */
export function requestContext(): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    const sent = ctx.get('X-Request-Id');
    const requestId = ACCEPTED_ID.test(sent)
      ? sent
      : `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeOf(ctx as { method: string; matched?: MatchedLayer[] });
      const labels = { method: ctx.method, route, status: String(ctx.status) };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, seconds);
      ctx.deps.logger.info(
        {
          requestId,
          method: ctx.method,
          path: ctx.path,
          route,
          status: ctx.status,
          durationMs: Math.round(seconds * 1e4) / 10,
          account: ctx.state.account?.name,
          batchId: ctx.state.batchId,
        },
        'request',
      );
    }
  };
}
