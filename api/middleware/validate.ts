import type { AnySchema, ErrorObject } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Middleware } from 'koa';
import type { AppCustom, AppState } from '../context';
import { type ApiError, validationProblem } from '../errors';
import { type Matcher, unknownFieldMessage, unknownPropertyOf, reportableErrors } from '../unknown-fields';
import { jsonBody } from './json-body';

/**
 * One ajv for the process: every schema is compiled once, when its route module loads. JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1, so the published schemas are validated as written (and
 * `unevaluatedProperties` closes the event objects that add properties per `$type`). `verbose` keeps
 * the schema and data on each error, to name the fields an unknown property could have meant.
 */
export const ajv = new Ajv2020({ allErrors: true, strict: true, coerceTypes: false, useDefaults: true, verbose: true });
addFormats(ajv);
ajv.addKeyword({ keyword: 'example' });
ajv.addKeyword({ keyword: 'x-field' });

const matches: Matcher = (schema, data) => ajv.validate(schema, data);

export type Source = 'body' | 'query' | 'headers';

const segmentsOf = (error: ErrorObject): string[] => error.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
const pathOf = (parts: string[]): string => parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');

/** `/Locations/0/Details/Name` → `Locations[0].Details.Name`; a missing or unknown property is named in full. */
export function fieldOf(error: ErrorObject): string {
  const parts = segmentsOf(error);
  if (error.keyword === 'required') parts.push(String(error.params.missingProperty));
  const unknown = unknownPropertyOf(error);
  if (unknown !== undefined) parts.push(unknown);
  return pathOf(parts);
}

export function messageOf(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return `${fieldOf(error)} is required.`;
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return unknownFieldMessage(error, fieldOf(error), pathOf(segmentsOf(error)), matches);
    case 'enum':
      return `${fieldOf(error) || 'value'} must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}.`;
    default:
      return `${fieldOf(error) || 'value'} ${error.message ?? 'is invalid'}.`;
  }
}

/** The default error: a 400 problem with `errors: { field: [messages] }`. */
export function problemFromErrors(errors: ErrorObject[]): ApiError {
  const grouped: Record<string, string[]> = {};
  for (const error of errors) (grouped[fieldOf(error) || '$'] ??= []).push(messageOf(error));
  return validationProblem(grouped);
}

/**
 * Validates one part of the request against a JSON Schema and puts the result on ctx.state.input.
 * `toError` lets a resource answer in its own documented error shape (it also gets the rejected input,
 * to name the element an error is about).
 */
export function validate(
  schema: AnySchema,
  source: Source = 'body',
  toError: (errors: ErrorObject[], input: unknown) => ApiError = problemFromErrors,
): Middleware<AppState, AppCustom> {
  const check = ajv.compile(schema);
  const validated: Middleware<AppState, AppCustom> = async (ctx, next) => {
    const input = source === 'body' ? (ctx.request as { body?: unknown }).body : source === 'query' ? { ...ctx.query } : { ...ctx.headers };
    if (!check(input)) throw toError(reportableErrors(check.errors ?? [], matches), input);
    ctx.state.input = input;
    await next();
  };
  if (source !== 'body') return validated;
  // The body is read here, on the routes that take one, after the key check that guards them.
  const read = jsonBody();
  return (ctx, next) => read(ctx, () => validated(ctx, next));
}
