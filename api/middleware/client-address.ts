import type { Middleware } from 'koa';
import proxyaddr from 'proxy-addr';
import type { AppCustom, AppState } from '../context';

/** What a proxy in front says about the request it passes on: Koa reads these with app.proxy. */
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'] as const;

/**
 * The client's address (ctx.ip, by which wrong keys are counted): the peer's, unless the peer is one of
 * the trusted proxies (TRUSTED_PROXIES); then, walking X-Forwarded-For from its end, the first address
 * that is not one of them (proxy-addr, as Express does), so what a client writes there itself never
 * counts. From any other peer the forwarded headers are dropped: no client can claim an address, nor the
 * protocol and host Koa takes from them (app.proxy).
 */
export function clientAddress(trustedProxies: readonly string[]): Middleware<AppState, AppCustom> {
  const trust = proxyaddr.compile([...trustedProxies]);
  return async (ctx, next) => {
    const peer = ctx.req.socket.remoteAddress;
    if (peer !== undefined) {
      if (!trust(peer, 0)) for (const name of FORWARDED_HEADERS) delete ctx.req.headers[name];
      ctx.request.ip = proxyaddr(ctx.req, trust);
    }
    await next();
  };
}
