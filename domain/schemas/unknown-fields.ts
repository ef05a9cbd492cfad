/**
 * Unknown properties in request bodies are refused, never dropped: the request schemas are the one list
 * of the names a body may carry. `closed` marks every object of a request schema closed, and the
 * helpers below turn ajv's "not evaluated" into a message that names the field and, when one is close,
 * the name that was meant (Stripe's "unknown parameter ... did you mean").
 */
import type { ErrorObject } from 'ajv';
import { isSchema, mapSubschemas, SAME_LIST, SAME_ONE, type Schema } from './limits';

/**
 * A request schema whose every object with `properties` takes those and nothing else: a plain object
 * gets `additionalProperties: false`; one that adds properties through `allOf`/`if`-`then` gets
 * `unevaluatedProperties: false`, so the properties of the branch that applies count as known. An
 * object that says what it takes beyond its properties (or has no properties: free form, as
 * ReadPoint) is left as written. A copy.
 */
export function closed<T extends object>(schema: T): T {
  const close = (node: unknown, own: boolean): unknown => {
    if (!isSchema(node)) return node;
    // The subschemas of the same object (if/then, allOf) are never closed themselves.
    const out = mapSubschemas(node, close);
    if (own && isSchema(out.properties) && !('additionalProperties' in out) && !('unevaluatedProperties' in out)) {
      const branches = SAME_ONE.some((key) => key in out) || SAME_LIST.some((key) => key in out);
      out[branches ? 'unevaluatedProperties' : 'additionalProperties'] = false;
    }
    return out;
  };
  return close(schema, true) as T;
}

/**
 * Edit distance; with `swaps`, a swap of two neighbours counts as one edit (optimal string alignment):
 * `vaule` is one from `value`.
 */
export function editDistance(a: string, b: string, swaps = true): number {
  // Three rows of the table are enough: the one before last (for swaps), the last, the current.
  let before: number[] = [];
  let last: number[] = [];
  for (let j = 0; j <= b.length; j++) last.push(j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(last[j] + 1, current[j - 1] + 1, last[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      current.push(d);
    }
    before = last;
    last = current;
  }
  return last[b.length];
}

const folded = (name: string): string => name.toLowerCase().replace(/[\s_-]/g, '');

/**
 * The known names `name` was probably meant as: the same name in another letter case (or with `_`/`-`),
 * else the nearest by a few edits (about one per four letters), else a known name that starts with it.
 */
export function closestNames(name: string, known: readonly string[]): string[] {
  // A name far longer than any field cannot be a typo of one (and would cost its length squared).
  if (name.length > 100) return [];
  const target = folded(name);
  const sameLetters = known.filter((candidate) => folded(candidate) === target);
  if (sameLetters.length) return sameLetters;
  const limit = Math.max(1, Math.floor(target.length / 4));
  const scored = known
    .map((candidate) => ({ candidate, d: editDistance(target, folded(candidate)) }))
    .filter(({ d }) => d <= limit);
  const best = Math.min(...scored.map(({ d }) => d));
  if (scored.length) return scored.filter(({ d }) => d === best).map(({ candidate }) => candidate);
  return target.length >= 4 ? known.filter((candidate) => folded(candidate).startsWith(target)) : [];
}

/** What an object schema lists as its own properties, and those its `allOf` if/then branches add. */
function branchesOf(schema: Schema): Array<{ when: Schema | undefined; names: string[] }> {
  const namesOf = (node: unknown) => (isSchema(node) && isSchema(node.properties) ? Object.keys(node.properties) : []);
  const branches: Array<{ when: Schema | undefined; names: string[] }> = [{ when: undefined, names: namesOf(schema) }];
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    if (!isSchema(part)) continue;
    if (isSchema(part.if)) branches.push({ when: part.if, names: namesOf(part.then) });
    else branches.push({ when: undefined, names: namesOf(part) });
  }
  return branches;
}

/** Tells whether `data` matches an `if` subschema: the caller's ajv, so the same rules apply. */
export type Matcher = (schema: Schema, data: unknown) => boolean;

/** The property a closed-object error is about, or undefined for any other error. */
export const unknownPropertyOf = (error: ErrorObject): string | undefined =>
  error.keyword === 'additionalProperties'
    ? String(error.params.additionalProperty)
    : error.keyword === 'unevaluatedProperties'
      ? String(error.params.unevaluatedProperty)
      : undefined;

/** One object with thousands of unknown keys is thousands of errors on the same schema and data: worked out once. */
const knownCache = new WeakMap<object, WeakMap<object, { known: string[]; elsewhere: string[] }>>();

/**
 * The names an object takes, for the data it was sent with: the properties of the branches whose `if`
 * matches. `elsewhere` are those only other branches take (a DestinationLocation on a commission).
 * The error must come from an ajv with `verbose: true` (it carries the schema and the data).
 */
export function knownNames(error: ErrorObject, matches: Matcher): { known: string[]; elsewhere: string[] } {
  const schema = isSchema(error.parentSchema) ? error.parentSchema : {};
  const data: unknown = error.data;
  const cached = isSchema(data) ? knownCache.get(data)?.get(schema) : undefined;
  if (cached) return cached;
  const known = new Set<string>();
  const other = new Set<string>();
  for (const { when, names } of branchesOf(schema))
    for (const name of names) (when === undefined || matches(when, data) ? known : other).add(name);
  const result = { known: [...known], elsewhere: [...other].filter((name) => !known.has(name)) };
  if (isSchema(data)) {
    const bySchema = knownCache.get(data) ?? new WeakMap<object, { known: string[]; elsewhere: string[] }>();
    bySchema.set(schema, result);
    knownCache.set(data, bySchema);
  }
  return result;
}

/** Unknown-field errors listed per request: a body of a million unknown keys is not answered with a million lines. */
export const MAX_UNKNOWN_FIELDS_LISTED = 1000;

/**
 * The errors worth answering: ajv reports every property of a failing `then` branch as unevaluated
 * too (its annotations are dropped with it), though those are known names whose own errors say what
 * is wrong; and unknown fields beyond MAX_UNKNOWN_FIELDS_LISTED are left out.
 */
export function reportableErrors(errors: ErrorObject[], matches: Matcher): ErrorObject[] {
  let unknown = 0;
  return errors.filter((error) => {
    const name = unknownPropertyOf(error);
    if (name === undefined) return true;
    if (error.keyword === 'unevaluatedProperties' && knownNames(error, matches).known.includes(name)) return false;
    return ++unknown <= MAX_UNKNOWN_FIELDS_LISTED;
  });
}

const list = (names: readonly string[]): string =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : (names[0] ?? '');

/**
 * `Locations[0].Details.GLN is not a field; did you mean Gln?`; without a close name, the fields the
 * object takes. `field` is the full path of the property, `parent` that of its object.
 */
export function unknownFieldMessage(error: ErrorObject, field: string, parent: string, matches: Matcher): string {
  const name = unknownPropertyOf(error) ?? '';
  const { known, elsewhere } = knownNames(error, matches);
  if (elsewhere.includes(name)) {
    const discriminator = discriminatorOf(error);
    return `${field} is not a field ${discriminator ? `when ${discriminator.key} is ${discriminator.value}` : 'here'}; the fields ${discriminator ? 'it takes' : 'here'} are ${known.join(', ')}.`;
  }
  const close = closestNames(name, known);
  if (close.length) return `${field} is not a field; did you mean ${list(close)}?`;
  return `${field} is not a field; the fields of ${parent || 'the body'} are ${known.join(', ')}.`;
}

/** `$type` and its value, when the object's branches are chosen by one property (`if: { properties: { $type } }`). */
function discriminatorOf(error: ErrorObject): { key: string; value: string } | undefined {
  const schema = isSchema(error.parentSchema) ? error.parentSchema : {};
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const keys =
      isSchema(part) && isSchema(part.if) && isSchema(part.if.properties) ? Object.keys(part.if.properties) : [];
    const value = keys.length === 1 && isSchema(error.data) ? error.data[keys[0]] : undefined;
    if (typeof value === 'string') return { key: keys[0], value };
  }
  return undefined;
}
