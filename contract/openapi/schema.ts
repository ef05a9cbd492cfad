/** What an answer holds, as its schema says: what the pages (web/) type the API's answers with. */
export type { KnownFrom as AnswerOf } from '../../domain/schemas/paired';

/** A JSON Schema as the route modules write it: plain objects, usually `as const`. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * Keywords ajv understands (or the ajv-keywords / ajv-errors plugins add) that are not JSON Schema
 * 2020-12 and so not OpenAPI 3.1: they stay in api/ for ajv and are left out of the published document.
 */
const AJV_ONLY = new Set([
  'errorMessage',
  'transform',
  'instanceof',
  'regexp',
  'typeof',
  'uniqueItemProperties',
  'dynamicDefaults',
  'select',
  'selectCases',
  'selectDefault',
]);

/**
 * The copy of a route's schema that goes into the OpenAPI document. Route schemas are JSON Schema
 * 2020-12, what ajv validates with and what OpenAPI 3.1 publishes; the few older spellings that can
 * slip in are translated here, and what cannot be published is refused loudly.
 */
export function publishSchema(schema: unknown, where = '$'): unknown {
  if (Array.isArray(schema)) return schema.map((item, i) => publishSchema(item, `${where}[${i}]`));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  const source = schema as Record<string, unknown>;
  for (const [key, value] of Object.entries(source)) {
    if (AJV_ONLY.has(key)) continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/') && !value.startsWith('#/components/')) {
      // Inside the document `#` is the document, not the schema: a local ref would point nowhere.
      throw new Error(
        `${where}: local $ref ${value} cannot be published; inline it or register it under components.schemas.`,
      );
    }
    if (key === 'definitions' || key === '$id' || key === '$schema') {
      throw new Error(
        `${where}: "${key}" is not supported in route schemas published to OpenAPI; keep schemas self-contained.`,
      );
    }
    if (key === 'nullable') continue; // folded into `type` below
    // `example`, `description`, `default`, `x-*`: valid in an OpenAPI 3.1 Schema Object as they are.
    out[key] = publishSchema(value, `${where}.${key}`);
  }
  if (source.nullable === true && typeof source.type === 'string') out.type = [source.type, 'null'];
  return out;
}

/**
 * A list of objects, each with `required` among its `properties`; `item` adds keywords to each object
 * (additionalProperties). Typed as written (`as const`), as the schemas it stands in.
 */
export const listOf = <
  const Required extends readonly string[],
  const Properties extends Record<string, unknown>,
  const Item extends JsonSchema = Record<never, never>,
>(
  required: Required,
  properties: Properties,
  item?: Item,
) => ({ type: 'array', items: { type: 'object', required, properties, ...(item as Item) } }) as const;

/** `required` and `properties` of an object every property of which is required. */
export const allRequired = <const Properties extends Record<string, unknown>>(properties: Properties) => ({
  required: Object.keys(properties) as (keyof Properties & string)[],
  properties,
});

/** `required`, `properties` and `additionalProperties: false` of an object of exactly these properties, all required. */
export const closed = <const Properties extends Record<string, unknown>>(properties: Properties) => ({
  ...allRequired(properties),
  additionalProperties: false as const,
});

/** An object schema of exactly these properties, all required. */
export const closedObject = <const Properties extends Record<string, unknown>>(properties: Properties) => ({
  type: 'object' as const,
  ...closed(properties),
});

/** An object schema every property of which is required. */
export const requiredObject = <const Properties extends Record<string, unknown>>(properties: Properties) => ({
  type: 'object' as const,
  ...allRequired(properties),
});
