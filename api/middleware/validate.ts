import type { AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import type { Middleware } from 'koa';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { AppCustom, AppState } from '../context';
import { type ApiError, validationProblem } from '../errors';
import type { PairedType } from '../../domain/schemas/paired';
import { ajv, fieldOf, messageOf, reportable } from '../../platform/json-schema';
import { jsonBody } from './json-body';

/** The default error: a 400 problem with `errors: { field: [messages] }`. */
export function problemFromErrors(errors: ErrorObject[]): ApiError {
  const grouped: Record<string, string[]> = {};
  for (const error of errors) (grouped[fieldOf(error) || '$'] ??= []).push(messageOf(error));
  return validationProblem(grouped);
}

/** The parts of a request the validate middleware checks, each against its own schema. */
const SOURCES = ['params', 'headers', 'query', 'body'] as const;
export type Source = (typeof SOURCES)[number];
/**
 * A body checked by code rather than by one schema (GS1's EPCIS documents: GS1's schemas and the rules
 * they cannot state); `check` returns the checked value or throws the resource's own error.
 */
export interface BodyCheck<T> {
  readonly check: (body: unknown) => T;
}
export type RequestSchemas = Partial<Record<Exclude<Source, 'body'>, AnySchema>> & {
  body?: AnySchema | BodyCheck<unknown>;
};
const isBodyCheck = (schema: AnySchema | BodyCheck<unknown>): schema is BodyCheck<unknown> =>
  typeof schema === 'object' && 'check' in schema && typeof schema.check === 'function';

/** What a schema accepts: its paired type, else what json-schema-to-ts derives from it (schemas `as const`). */
export type Accepted<S> = S extends BodyCheck<infer C> ? C : unknown extends PairedType<S> ? Derived<S> : PairedType<S>;
/** `never` for a schema json-schema-to-ts cannot read (not `as const`): the handler then fails to type-check. */
type Derived<S> = S extends JSONSchema ? FromSchema<S> : never;

/** The checked input a handler reads from ctx.state.input: one entry per part validated. */
export type InputOf<S extends RequestSchemas> = { [K in keyof S]: Accepted<S[K]> };

/** The context of a handler behind validate(schemas): ctx.state.input typed from the schemas. */
export type ValidatedState<S extends RequestSchemas> = AppState & { input: InputOf<S> };

/** How a resource answers a refused part in its own documented shape (it gets the rejected input, to name the element an error is about). */
export type ToError = (errors: ErrorObject[], input: unknown, source: Source) => ApiError;

/** A property of a refused part, for an error that names it (`params.batchId`): '' when it is not a string. */
export function textOf(input: unknown, name: string): string {
  const value: unknown =
    typeof input === 'object' && input !== null ? Object.getOwnPropertyDescriptor(input, name)?.value : undefined;
  return typeof value === 'string' ? value : '';
}

const isSource = (key: string): key is Source => (SOURCES as readonly string[]).includes(key);

/** The properties of an object schema: for a header schema, the headers it names. */
function propertiesOf(schema: AnySchema): Record<string, unknown> {
  const properties: unknown = typeof schema === 'object' ? schema.properties : undefined;
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, unknown>) : {};
}

/**
 * The headers a schema names, under the schema's spelling (`Idempotency-Key`: header names are
 * case-insensitive, Node's are lower case), trimmed; a blank one is absent, as `ctx.get(name).trim()`
 * read them. A repeated header is one comma-separated value.
 */
function namedHeaders(
  schema: AnySchema,
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const properties = propertiesOf(schema);
  return Object.fromEntries(
    Object.keys(properties).flatMap((name) => {
      const raw = headers[name.toLowerCase()];
      const value = (Array.isArray(raw) ? raw.join(', ') : (raw ?? '')).trim();
      return value ? [[name, canonicalValue(properties[name], value)]] : [];
    }),
  );
}

/**
 * Header values are taken in any letter case where the schema lists them (`GS1-EPC-Format:
 * ALWAYS_EPC_URN`, as GDST's tools send it), and read in the schema's spelling; any other value is
 * left as sent, for the schema to refuse and name.
 */
function canonicalValue(property: unknown, value: string): string {
  const allowed: unknown =
    typeof property === 'object' && property !== null ? (property as { enum?: unknown }).enum : undefined;
  if (!Array.isArray(allowed)) return value;
  const match = allowed.find(
    (candidate): candidate is string =>
      typeof candidate === 'string' && candidate.toLowerCase() === value.toLowerCase(),
  );
  return match ?? value;
}

/**
 * Validates the parts of the request the route names (path parameters, headers, query, body), each
 * against its JSON Schema and in the order named, and puts what passed on ctx.state.input (`input.body`, `input.query`, ...),
 * typed from the schemas: a handler behind it reads a checked, typed input and checks nothing itself.
 * `refine` checks what a schema cannot say, on the typed input, and returns the error to answer. The body is read here, on the routes that take one,
 * after the key check that guards them.
 */
export function validate<S extends RequestSchemas>(
  schemas: S,
  toError: ToError = problemFromErrors,
  refine?: (input: InputOf<S>) => ApiError | undefined,
): Middleware<ValidatedState<S>, AppCustom> {
  // In the order the route names them: the first part refused is the one answered.
  const checks = Object.keys(schemas)
    .filter(isSource)
    .flatMap((source): { source: Source; accept: (value: unknown) => unknown; schema: AnySchema | undefined }[] => {
      const schema = schemas[source];
      if (schema === undefined) return [];
      if (isBodyCheck(schema)) return [{ source, accept: schema.check, schema: undefined }];
      // Compiled on the route's first request, not at the API's start: compiling every route's schemas was
      // about 0.6 s of CPU at every start, most of it for routes a process may never serve.
      let check: ValidateFunction | undefined;
      const accept = (value: unknown): unknown => {
        check ??= ajv.compile(schema);
        if (!check(value)) throw toError(reportable(check.errors ?? []), value, source);
        return value;
      };
      return [{ source, accept, schema }];
    });
  const validated: Middleware<ValidatedState<S>, AppCustom> = async (ctx, next) => {
    const input: Partial<Record<Source, unknown>> = {};
    for (const { source, accept, schema } of checks) {
      const value =
        source === 'body'
          ? (ctx.request as { body?: unknown }).body
          : source === 'query'
            ? { ...ctx.query }
            : source === 'params'
              ? { ...(ctx as { params?: Record<string, string> }).params }
              : namedHeaders(schema ?? {}, ctx.headers);
      input[source] = accept(value);
    }
    // Every part the schemas name has passed its schema: this is the type they describe.
    ctx.state.input = input as InputOf<S>;
    const refused = refine?.(ctx.state.input);
    if (refused) throw refused;
    await next();
  };
  if (schemas.body === undefined) return validated;
  const read = jsonBody();
  return (ctx, next) => read(ctx, () => validated(ctx, next));
}
