import type { Middleware } from 'koa';
import type { AppCustom, AppState } from '../context';
import { validationProblem } from '../errors';

/** The path of the first string holding U+0000 inside a parsed JSON value, if any. */
function nulPath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '$' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const found = nulPath(child, path ? `${path}.${key}` : key) ?? (key.includes('\u0000') ? path || '$' : undefined);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold U+0000, so a value carrying one would fail deep inside a query (or a
 * workflow step) instead of at the edge. Every query parameter and JSON body is checked once, here.
 */
export function rejectNul(): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    const field = nulPath({ ...ctx.query }, '') ?? nulPath((ctx.request as { body?: unknown }).body, '');
    if (field) throw validationProblem({ [field]: [`${field} must not contain the NUL character (U+0000).`] });
    await next();
  };
}
