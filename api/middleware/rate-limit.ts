import {
  FAILED_KEYS_WINDOW_SECONDS,
  BURST_WINDOW_SECONDS,
  type KeyLimit,
  type LimitDecision,
} from '../../db/rate-limits';
import type { APIContext } from '../context';
import type { ErrorCode } from '../../contract/error-catalogue';
import { problem, type ApiError } from '../errors';

type Context = Pick<APIContext, 'set' | 'path'>;

const retryAfterSeconds = (decision: LimitDecision): number => Math.max(1, Math.ceil(decision.msBeforeNext / 1000));

/** A 429 in the answer shape of the route: problem details, or the EPCIS exception under /epcis. */
function tooManyRequests(
  ctx: Context,
  decision: LimitDecision,
  [http, epcis]: [ErrorCode, ErrorCode],
  detail: string,
): ApiError {
  ctx.set('Retry-After', String(retryAfterSeconds(decision)));
  return problem(ctx.path === '/epcis' || ctx.path.startsWith('/epcis/') ? epcis : http, { detail });
}

/**
 * The IETF RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers): the key's
 * policies (q requests per w seconds) and what is left of the per-second one (r, reset in t seconds).
 */
export function keyLimitHeaders(ctx: Context, limit: KeyLimit, decision: LimitDecision): void {
  const policies = [`"per-key";q=${limit.perSecond};w=1`];
  if (limit.burst > 0) policies.push(`"burst";q=${limit.burst};w=${BURST_WINDOW_SECONDS}`);
  ctx.set('RateLimit-Policy', policies.join(', '));
  ctx.set('RateLimit', `"per-key";r=${decision.remaining};t=${retryAfterSeconds(decision)}`);
}

export const keyThrottled = (ctx: Context, limit: KeyLimit, decision: LimitDecision): ApiError =>
  tooManyRequests(
    ctx,
    decision,
    ['too-many-requests', 'epcis-too-many-requests'],
    `Too many requests with this API key: it may make ${limit.perSecond} a second` +
      (limit.burst > 0 ? ` and ${limit.burst} more a minute above that` : '') +
      `; send again after ${retryAfterSeconds(decision)} s (Retry-After).`,
  );

export function failedKeysThrottled(ctx: Context, perMinute: number, decision: LimitDecision): ApiError {
  ctx.set('RateLimit-Policy', `"failed-keys";q=${perMinute};w=${FAILED_KEYS_WINDOW_SECONDS}`);
  ctx.set('RateLimit', `"failed-keys";r=0;t=${retryAfterSeconds(decision)}`);
  return tooManyRequests(
    ctx,
    decision,
    ['too-many-failed-keys', 'epcis-too-many-failed-keys'],
    `Too many requests with a wrong API key from this address; send again after ${retryAfterSeconds(decision)} s (Retry-After).`,
  );
}
