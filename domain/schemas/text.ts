import { LIMITS } from './limits';

/** A required string property of a schema, with its description and example (the OpenAPI document shows both). */
export const text = (description: string, example?: string) =>
  ({ type: 'string', minLength: 1, description, ...(example === undefined ? {} : { example }) }) as const;

/** A property that is a string or null. */
export const nullableText = (description: string, example?: string) =>
  ({ type: ['string', 'null'], description, ...(example === undefined ? {} : { example }) }) as const;

/**
 * A caller's id of a record (a product, location or trade partner): at most LIMITS.idLength, as events bound
 * the ids that name it (a longer one could be created but never named); the stored key's unique index takes
 * no more than about 2,700 bytes, which 1,000 characters of a non-Latin script pass.
 */
export const idText = (description: string, example?: string) =>
  ({ ...text(description, example), maxLength: LIMITS.idLength }) as const;
