/** A required string property of a schema, with its description and example (the OpenAPI document shows both). */
export const text = (description: string, example?: string) =>
  ({ type: 'string', minLength: 1, description, ...(example === undefined ? {} : { example }) }) as const;

/** A property that is a string or null. */
export const nullableText = (description: string, example?: string) =>
  ({ type: ['string', 'null'], description, ...(example === undefined ? {} : { example }) }) as const;
