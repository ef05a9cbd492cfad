import type { Middleware } from 'koa';
import { ConnectionError, DatabaseError, ForeignKeyConstraintError, UniqueConstraintError } from 'sequelize';
import { IdempotencyKeyReused } from '../../db/repositories/batches';
import type { AppCustom, AppState } from '../context';
import { isErrorCode } from '../../contract/error-catalogue';
import { ApiError, problem } from '../errors';

interface HttpishError {
  status?: number;
  expose?: boolean;
  type?: string;
  message?: string;
}

/**
 * PostgreSQL going away under a request (restarting, shutting down, refusing connections): SQLSTATE
 * class 08 (connection exception) and 57P0x (operator intervention), or pg's own "Connection
 * terminated". A moment later the same request succeeds.
 */
function databaseUnavailable(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  if (!(error instanceof DatabaseError)) return false;
  const { code, message } = error.original as Error & { code?: string };
  return /^(08|57P0)/.test(code ?? '') || /Connection terminated/i.test(message ?? '');
}

/** Turns what a handler throws (or what Koa's body parser throws) into one ApiError. */
function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (databaseUnavailable(error)) return problem('database-unavailable');
  if (error instanceof IdempotencyKeyReused)
    return problem('idempotency-key-reused', { detail: error.message, errors: { 'Idempotency-Key': [error.message] } });
  if (error instanceof UniqueConstraintError) return problem('resource-exists');
  if (error instanceof ForeignKeyConstraintError) return problem('unknown-reference');
  const e = error as HttpishError;
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    if (e.type === 'entity.parse.failed' || /JSON/i.test(e.message ?? '')) {
      return problem('malformed-json', { detail: `The request body is not valid JSON: ${e.message}` });
    }
    if (e.status === 413) return problem('body-too-large');
    if (e.status === 415) return problem('unsupported-media-type');
    return problem('unreadable-body', e.expose && e.message ? { detail: e.message } : {});
  }
  return undefined;
}

export function errorHandler(): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw problem('no-route', { detail: `No route for ${ctx.method} ${ctx.path}.` });
      }
      // @koa/router's allowedMethods leaves these bodiless (Allow header set): 405 for a method another
      // route of the path takes, 501 for one no route uses at all (TRACE). Both are the caller's doing.
      if ((ctx.status === 405 || ctx.status === 501) && ctx.body === undefined) {
        throw problem('method-not-allowed', { detail: `Method ${ctx.method} is not allowed on ${ctx.path}.` });
      }
    } catch (error) {
      let apiError = toApiError(error);
      // A problem a client cannot look up in docs/errors.md is a fault of the service, like any other.
      if (!apiError || (apiError.isProblem && !isErrorCode((apiError.body as { code?: unknown }).code))) {
        ctx.deps.logger.error({ err: error, requestId: ctx.state.requestId }, 'unhandled error');
        apiError = problem('unexpected-error');
      }
      ctx.status = apiError.status;
      const { body } = apiError;
      if (typeof body === 'string') {
        // A documented plain JSON string body; Koa would send a bare string as text/plain.
        ctx.body = JSON.stringify(body);
        ctx.type = 'application/json';
      } else if (apiError.isProblem) {
        ctx.body = { ...(body as object), traceId: ctx.state.requestId };
        ctx.type = 'application/problem+json';
      } else {
        ctx.body = body;
      }
    }
  };
}
