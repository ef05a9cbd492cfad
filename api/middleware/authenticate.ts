import type { Middleware } from 'koa';
import { authenticate as findAccount } from '../../db/repositories/accounts';
import type { AppCustom, AppState } from '../context';
import { problem } from '../errors';
import { failedKeysThrottled, keyLimitHeaders, keyThrottled } from './rate-limit';

/**
 * SPEC.md, Authentication 6 and 7: missing key is a 400 validation problem, a wrong one a 401. Fair use:
 * an address (api/middleware/client-address.ts) that sent too many wrong keys gets 429 for its wrong
 * keys; only failures are counted and only failures refused, so a valid key is never locked out by the
 * others behind the same NAT or proxy. Every key has a request rate (its account's, else the
 * service's) past which it gets 429.
 */
export function authenticate(): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    const presented = ctx.get('X-API-KEY').trim();
    if (!presented) throw problem('missing-api-key', { errors: { 'X-API-KEY': ['The apiKey field is required.'] } });
    const { rateLimits, config } = ctx.deps;
    const caller = await findAccount(presented);
    if (!caller) {
      const blocked = await rateLimits.failedKeysBlocked(ctx.ip);
      if (blocked) throw failedKeysThrottled(ctx, rateLimits.failedKeysPerMinute, blocked);
      await rateLimits.countFailedKey(ctx.ip);
      throw problem('invalid-api-key');
    }
    const { account } = caller;
    const limit = {
      perSecond: account.rateLimitPerSecond ?? config.rateLimitPerSecond,
      burst: account.rateLimitPerSecond === null ? config.rateLimitBurst : (account.rateLimitBurst ?? 0),
    };
    const decision = await rateLimits.consumeKey(caller.keyId, limit);
    keyLimitHeaders(ctx, limit, decision);
    if (!decision.allowed) throw keyThrottled(ctx, limit, decision);
    ctx.state.account = account;
    ctx.state.caller = caller;
    await next();
  };
}
