import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

declare const paired: unique symbol;
/**
 * A schema paired with the type of what it accepts, where json-schema-to-ts does not derive it (the
 * event bodies: each `$type` adds required properties through allOf/if-then, which FromSchema ignores
 * unless told to expand every branch, and the pipeline already takes a domain type for them). The one
 * place a schema and a type are joined by hand; the runtime value is the schema unchanged.
 */
export type Paired<S, T> = S & { readonly [paired]?: T };
export const pairedWith =
  <T>() =>
  <S extends object>(schema: S): Paired<S, T> =>
    schema;

/** The type a schema was paired with, `unknown` for a schema that was not. */
export type PairedType<S> = S extends { readonly [paired]?: infer T } ? T : unknown;

/**
 * A type's members each named: the index signature of unknown that FromSchema gives an object schema without
 * `additionalProperties: false` is left out, at every depth, so a misspelt member does not type-check.
 */
export type Known<T> = T extends readonly (infer E)[]
  ? Known<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> }
    : T;

/** What a schema accepts (or an answer it describes holds), its named members only. */
export type KnownFrom<S extends JSONSchema> = Known<FromSchema<S>>;
