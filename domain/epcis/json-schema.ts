/**
 * GS1's EPCIS 2.0 JSON Schema (gs1-epcis-json-schema.json, as GS1 publishes it, unchanged): what a
 * document or an event must be, whether captured (JSON-LD, or XML read into it) or sent (a query's
 * answer, a subscription's report). The GS1 schema is draft-07 and written for its own validator: it
 * names required properties only some branches define, so it gets an ajv of its own without strict mode
 * (the service's ajv, platform/json-schema.ts, keeps strict mode for our schemas).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import gs1Schema from './gs1-epcis-json-schema.json';

/**
 * A valid document is confirmed by the first pass, which stops at the first error; only a failing one is
 * walked again for every error. Each is compiled when first needed (about 0.2 s of CPU each): most starts
 * of the API never see a capture, fewer still an invalid one.
 */
function gs1Validator(allErrors: boolean): () => ValidateFunction {
  let compiled: ValidateFunction | undefined;
  return () => {
    if (compiled) return compiled;
    const ajv = new Ajv({ allErrors, strict: false, validateFormats: true });
    addFormats(ajv);
    return (compiled = ajv.compile(gs1Schema));
  };
}
const isValidDocument = gs1Validator(false);
const checkDocument = gs1Validator(true);

export interface SchemaIssue {
  /** JSON pointer into the document ('' is the whole of it). */
  pointer: string;
  message: string;
}

function issueOf(error: ErrorObject): SchemaIssue {
  let pointer = error.instancePath;
  if (error.keyword === 'required') pointer += `/${String(error.params.missingProperty)}`;
  if (error.keyword === 'additionalProperties') pointer += `/${String(error.params.additionalProperty)}`;
  const detail =
    error.keyword === 'enum'
      ? `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`
      : error.keyword === 'required'
        ? 'is required'
        : error.keyword === 'additionalProperties'
          ? 'is not allowed here'
          : (error.message ?? 'is invalid');
  return { pointer, message: `${pointer || '/'} ${detail}.` };
}

/**
 * What GS1's schema finds wrong with a document or an event, by JSON pointer. Branch bookkeeping
 * (`if`, `oneOf`/`anyOf` summaries) only repeats what the inner errors say, so it is left out unless
 * nothing else is left.
 */
export function gs1SchemaIssues(body: unknown): SchemaIssue[] {
  if (isValidDocument()(body)) return [];
  const check = checkDocument();
  if (check(body)) return [];
  const errors = check.errors ?? [];
  const specific = errors.filter((e) => !['if', 'oneOf', 'anyOf', 'allOf', 'not'].includes(e.keyword));
  const seen = new Set<string>();
  const issues: SchemaIssue[] = [];
  for (const issue of (specific.length ? specific : errors).map(issueOf)) {
    if (!seen.has(issue.message)) issues.push(issue);
    seen.add(issue.message);
  }
  return issues;
}
