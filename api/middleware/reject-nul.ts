import type { Middleware } from 'koa';
import type { AppCustom, AppState } from '../context';
import { validationProblem } from '../errors';

/**
 * PostgreSQL text cannot hold U+0000, so a query parameter carrying one would fail deep inside a query
 * instead of at the edge. JSON bodies get the same check where they are read (json-body.ts).
 */
export function rejectNul(): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    for (const [name, value] of Object.entries(ctx.query)) {
      const values = Array.isArray(value) ? value : [value ?? ''];
      if (name.includes('\u0000') || values.some((v) => v.includes('\u0000'))) {
        throw validationProblem({ [name]: [`${name} must not contain the NUL character (U+0000).`] });
      }
    }
    await next();
  };
}
