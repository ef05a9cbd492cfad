import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import type { AppCustom, AppState } from '../context';
import { readingBody } from '../expect-continue';
import { problem, validationProblem, type ApiError } from '../errors';
import { LIMITS } from '../../domain/schemas/limits';
import { declaredOver } from '../limits';

export const JSON_MEDIA_TYPES = ['application/json'] as const;

const PROTOTYPE_KEY =
  'The body has a key named __proto__ (or constructor.prototype), which is not accepted in any field.';

/** A value met walking a body: where it sits is spelled out only when something is wrong with it. */
interface Visit {
  value: unknown;
  parent: Visit | undefined;
  key: string | number;
  depth: number;
}

/** The path of a visited value (`Events[3].Location.Id`; '' for the body itself). */
function pathOf(visit: Visit): string {
  const keys: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) keys.push(at.key);
  let path = '';
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i];
    path = typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
  }
  return path;
}

/** Why a parsed JSON value cannot be taken as it is, naming the path: the first problem found. */
export function jsonValueIssue(root: unknown): { field: string; message: string } | undefined {
  // Iterative: a body nested thousands of levels deep must not overflow the stack. Paths are spelled out
  // only for a problem: a 500-event capture holds thousands of values, and every one of them is fine.
  const stack: Visit[] = [{ value: root, parent: undefined, key: '', depth: 0 }];
  while (stack.length) {
    const visit = stack.pop()!;
    const { value, depth } = visit;
    if (typeof value === 'string') {
      const issue = stringIssue(value);
      if (!issue) continue;
      const field = pathOf(visit) || '$';
      return { field, message: `${field} ${issue}` };
    }
    if (!value || typeof value !== 'object') continue;
    if (depth >= LIMITS.depth) {
      const field = pathOf(visit) || '$';
      return { field, message: `${field} is nested too deeply: at most ${LIMITS.depth} levels of objects and arrays.` };
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], parent: visit, key: i, depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      const child = (value as Record<string, unknown>)[key];
      const keyIssue = stringIssue(key);
      // Harmless to JSON.parse, but what merges into prototypes elsewhere: no field of ours is named so.
      const prototypeKey =
        key === '__proto__' || (key === 'constructor' && child && typeof child === 'object' && 'prototype' in child);
      if (keyIssue || prototypeKey) {
        const field = pathOf(visit) || '$';
        return { field, message: keyIssue ? `A key of ${field} ${keyIssue}` : PROTOTYPE_KEY };
      }
      stack.push({ value: child, parent: visit, key, depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * PostgreSQL text holds neither U+0000 nor a lone UTF-16 surrogate (JSON allows both as escapes), so a
 * value carrying one would fail deep inside a query or a workflow step instead of here.
 */
function stringIssue(value: string): string | undefined {
  if (value.length > LIMITS.anyStringLength) return `is longer than ${LIMITS.anyStringLength} characters.`;
  if (value.includes('\u0000')) return 'must not contain the NUL character (U+0000).';
  if (!value.isWellFormed()) return 'must not contain a lone UTF-16 surrogate (\\ud800-\\udfff without its pair).';
  return undefined;
}

/**
 * Reads and parses a JSON request body, for the routes that validate one; it runs after the API key
 * check, so an unauthenticated request costs no body parsing. A body that is not JSON is a 415 that
 * names the accepted media types; prototype keys, deep nesting and strings PostgreSQL cannot store are
 * 400s naming the field.
 */
export function jsonBody(): Middleware<AppState, AppCustom> {
  const parse = koaBody({
    json: true,
    multipart: false,
    urlencoded: false,
    text: false,
    // Every type the check below lets through is parsed (application/ld+json from EPCIS clients among them).
    jsonTypes: [...JSON_MEDIA_TYPES, '+json'],
    jsonLimit: LIMITS.jsonBodyBytes,
    jsonStrict: false,
    onError: (error) => {
      throw parseProblem(error as Error & { status?: number });
    },
  });
  return async (ctx, next) => {
    if (!ctx.is(...JSON_MEDIA_TYPES, '+json')) {
      const sent = ctx.get('Content-Type') || 'none';
      throw problem('not-json', {
        detail: `The request body must be JSON: send Content-Type: application/json (got ${sent}).`,
        accepted: JSON_MEDIA_TYPES,
      });
    }
    if (declaredOver(ctx.req.headers, LIMITS.jsonBodyBytes)) throw bodyTooLarge();
    readingBody(ctx.req, ctx.res);
    await parse(ctx, async () => undefined);
    const body = (ctx.request as { body?: unknown }).body;
    const issue = jsonValueIssue(body);
    if (issue) throw validationProblem({ [issue.field]: [issue.message] });
    await next();
  };
}

/** A JSON (or XML) body over LIMITS.jsonBodyBytes, declared so or found so while reading. */
export const bodyTooLarge = (): ApiError =>
  problem('body-too-large', {
    detail: `The request body is too large: at most ${LIMITS.jsonBodyBytes / 1024 / 1024} MB.`,
  });

/** What the JSON parser (koa-body, co-body underneath) refused, as the caller should read it. */
function parseProblem(error: Error & { status?: number }): ApiError | Error {
  if (error.status === 413 || /too large/i.test(error.message)) return bodyTooLarge();
  if (/prototype/i.test(error.message)) {
    return problem('forbidden-json-key', { errors: { $: [PROTOTYPE_KEY] } });
  }
  return problem('malformed-json', { detail: `The request body is not valid JSON: ${error.message}` });
}
