import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/** Members a schema names, each known: what FromSchema adds for `additionalProperties` (unknown) is left out. */
type Known<T> = T extends readonly (infer E)[]
  ? Known<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> }
    : T;
/**
 * What an operation answers, as the published contract's schema (contract/, imported for its types only:
 * nothing of it is bundled) says: a page breaks at type-check, not in a browser, when the contract changes.
 */
export type AnswerOf<S extends JSONSchema> = Known<FromSchema<S>>;
