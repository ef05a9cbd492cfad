/**
 * What one request may carry: one definition of each bound, used by the request schemas (so the
 * OpenAPI document states them) and by the JSON body reader (for free-form objects no schema spells out).
 */
export const LIMITS = {
  /** A JSON body, as read from the socket (events with inline master data run to a few MB). */
  jsonBodyBytes: 25 * 1024 * 1024,
  /** Objects and arrays inside one another; the deepest documented shape needs about ten. */
  depth: 32,
  /** Ids, lot and serial numbers, codes: what callers use as keys. */
  idLength: 200,
  /** Names, URNs, free text fields. */
  textLength: 1000,
  /**
   * A query parameter's values (`MATCH_anyEPC=a|b|…`): GDST's client asks for every EPC a trace has reached
   * in one query. A request head past Node's 16 KB is answered 431 all the same (api/client-errors.ts).
   */
  queryListLength: 8000,
  /** Any string anywhere in a body, also inside free-form objects (CustomProperties, Vessel, ...). */
  anyStringLength: 10_000,
  /** Elements of an array without a bound of its own (lists of master data, lines of an event). */
  arrayItems: 1000,
  /** Quantities: exact in NUMERIC and in the JSON numbers callers send (15 significant digits). */
  quantity: 1_000_000_000_000,
} as const;

/** A quantity of a payload: a decimal from 0 to LIMITS.quantity. */
export const quantity = (description: string) =>
  ({ type: 'number', minimum: 0, maximum: LIMITS.quantity, description }) as const;

export type Schema = { [keyword: string]: unknown };

export const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords whose subschemas describe values of their own (a property, an element): one, a map or a list of them. */
const VALUE_ONE = ['items', 'additionalProperties', 'contains'];
const VALUE_MAP = ['properties', 'patternProperties', '$defs'];
const VALUE_LIST = ['prefixItems'];
/** Keywords whose subschemas describe the same value as their parent. */
export const SAME_ONE = ['if', 'then', 'else', 'not'];
export const SAME_LIST = ['allOf', 'anyOf', 'oneOf'];

/** A copy of a schema with each subschema passed through `map`, told whether it describes a value of its own. */
export function mapSubschemas(schema: Schema, map: (child: unknown, own: boolean) => unknown): Schema {
  const out: Schema = { ...schema };
  for (const key of [...VALUE_ONE, ...SAME_ONE]) if (key in out) out[key] = map(out[key], VALUE_ONE.includes(key));
  for (const key of VALUE_MAP) {
    if (isSchema(out[key]))
      out[key] = Object.fromEntries(Object.entries(out[key]).map(([name, child]) => [name, map(child, true)]));
  }
  for (const key of [...VALUE_LIST, ...SAME_LIST])
    if (Array.isArray(out[key])) out[key] = out[key].map((child: unknown) => map(child, VALUE_LIST.includes(key)));
  return out;
}

const hasType = (schema: Schema, type: string): boolean =>
  schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));

/**
 * A request schema with a bound on everything it takes: each string without a maxLength gets
 * LIMITS.textLength, each array without a maxItems LIMITS.arrayItems, each number without bounds
 * ±LIMITS.quantity. A copy: the response schemas that share parts of it keep theirs. The bounds are
 * part of the schema, so ajv enforces exactly what the OpenAPI document states.
 */
export function withLimits<T extends object>(schema: T): T {
  const bound = (node: unknown): unknown => {
    if (!isSchema(node)) return node;
    const out = mapSubschemas(node, bound);
    if (hasType(out, 'string') && !('maxLength' in out) && !('enum' in out) && !('const' in out))
      out.maxLength = LIMITS.textLength;
    if (hasType(out, 'array') && !('maxItems' in out)) out.maxItems = LIMITS.arrayItems;
    if (hasType(out, 'number') || hasType(out, 'integer')) {
      if (!('maximum' in out) && !('exclusiveMaximum' in out)) out.maximum = LIMITS.quantity;
      if (!('minimum' in out) && !('exclusiveMinimum' in out)) out.minimum = -LIMITS.quantity;
    }
    return out;
  };
  return bound(schema) as T;
}
