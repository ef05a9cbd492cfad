import type { Client } from '@temporalio/client';
import type { RouterContext } from '@koa/router';
import type { Sequelize } from 'sequelize';
import type { BatchFinishedListener } from '../db/batch-finished';
import type { RateLimits } from '../db/rate-limits';
import type { Caller, CallerAccount } from '../db/repositories/accounts';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import type { QuerySockets } from '../usecases/query-sockets';

/** What every handler can reach: built once at start-up, shared by all requests. */
export interface Deps {
  config: Config;
  sequelize: Sequelize;
  temporal: Client;
  logger: Logger;
  /** Wakes a sync call when its batch's row is finished (db/batch-finished.ts). */
  batchFinished: BatchFinishedListener;
  /** The EPCIS query subscriptions this process holds open over WebSocket (usecases/query-sockets.ts). */
  querySockets: QuerySockets;
  /** Fair use: the per-key and per-address counters every replica shares (db/rate-limits.ts). */
  rateLimits: RateLimits;
  /** The API's own worker polls the sync task queue: small sync batches start eagerly there (API_SYNC_WORKER). */
  eagerStart: boolean;
}

export interface AppState {
  requestId: string;
  /** Set by the authenticate middleware on every route that needs a key. */
  account: CallerAccount;
  /** Set with account: the key's id and role (a support key reaches every account's batches). */
  caller: Caller;
  /** Set by the validate middleware: typed for the handler behind it (ValidatedState, APIContext<Input>). */
  input: unknown;
  /** Set by the event endpoints once the batch is stored: the request's log line names it. */
  batchId?: string;
}

export interface AppCustom {
  deps: Deps;
}

type Routed<Input> = RouterContext<AppState & { input: Input }, AppCustom>;

/**
 * A handler's context; `Input` is what the validate middleware in front of it checked (its InputOf).
 * Without the router's own references, which would make a context with a typed input unusable where a
 * helper takes any handler's context.
 */
export type APIContext<Input = unknown> = Omit<Routed<Input>, 'router' | 'matched' | 'state'> & {
  state: AppState & { input: Input };
};
