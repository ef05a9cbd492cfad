import {
  BurstyRateLimiter,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Sequelize } from 'sequelize';

/** The table db/migrations/20261214000000-rate-limits.ts creates for rate-limiter-flexible. */
const TABLE = 'rate_limit_counters';
/** The window the burst allowance refills over. */
export const BURST_WINDOW_SECONDS = 60;
export const FAILED_KEYS_WINDOW_SECONDS = 60;

export interface KeyLimit {
  perSecond: number;
  burst: number;
}

/** What a limiter said about one request: allowed or not, and what the client may still do. */
export interface LimitDecision {
  allowed: boolean;
  /** Requests left in the current second (the burst allowance is not counted). */
  remaining: number;
  /** Milliseconds until the current window ends (and, when refused, until a retry can succeed). */
  msBeforeNext: number;
}

type Consumer = Pick<BurstyRateLimiter, 'consume'>;

const decision = (allowed: boolean, res: RateLimiterRes): LimitDecision => ({
  allowed,
  remaining: res.remainingPoints,
  msBeforeNext: Math.max(0, res.msBeforeNext),
});

/**
 * The counters every API replica shares, in PostgreSQL (rate-limiter-flexible's RateLimiterPostgres):
 * a per-second bucket per API key with a burst allowance on top (its BurstyRateLimiter), and a count of
 * failed key checks per client address. When PostgreSQL does not answer, the library's insurance limiter
 * counts in this process's memory instead, so a database restart neither refuses nor frees every caller.
 */
export class RateLimits {
  private readonly keyLimiters = new Map<string, Consumer>();
  private readonly failedKeys: RateLimiterAbstract;

  constructor(
    private readonly sequelize: Sequelize,
    readonly failedKeysPerMinute: number,
  ) {
    this.failedKeys = this.store('failed-key', failedKeysPerMinute, FAILED_KEYS_WINDOW_SECONDS);
  }

  private store(keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
    return new RateLimiterPostgres({
      storeClient: this.sequelize,
      storeType: 'sequelize',
      tableName: TABLE,
      tableCreated: true,
      keyPrefix,
      points,
      duration,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
    });
  }

  /** One limiter per distinct limit: the counters are per key, whichever limit an account has today. */
  private keyLimiter({ perSecond, burst }: KeyLimit): Consumer {
    const name = `${perSecond}/${burst}`;
    let limiter = this.keyLimiters.get(name);
    if (!limiter) {
      const rate = this.store('key', perSecond, 1);
      limiter = burst > 0 ? new BurstyRateLimiter(rate, this.store('key-burst', burst, BURST_WINDOW_SECONDS)) : rate;
      this.keyLimiters.set(name, limiter);
    }
    return limiter;
  }

  /** Counts one request of an API key against its limit. */
  async consumeKey(keyId: string, limit: KeyLimit): Promise<LimitDecision> {
    try {
      return decision(true, await this.keyLimiter(limit).consume(keyId));
    } catch (refused) {
      if (refused instanceof RateLimiterRes) return decision(false, refused);
      throw refused;
    }
  }

  /** Whether this address has used up its failed key checks for now (nothing is counted). */
  async failedKeysBlocked(address: string): Promise<LimitDecision | undefined> {
    const res = await this.failedKeys.get(address);
    return res && res.consumedPoints >= this.failedKeysPerMinute ? decision(false, res) : undefined;
  }

  /** Counts one failed key check of this address. */
  async countFailedKey(address: string): Promise<void> {
    await this.failedKeys.penalty(address, 1);
  }
}
