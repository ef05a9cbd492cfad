import type { ErrorObject } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {
  type Matcher,
  unknownFieldMessage,
  unknownPropertyOf,
  reportableErrors,
} from '../domain/schemas/unknown-fields';

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

/** ajv's errors as a caller reports them: without the per-type branches' false "not a field" (domain/schemas/unknown-fields.ts). */
export const reportable = (errors: ErrorObject[]): ErrorObject[] => reportableErrors(errors, matches);

const segmentsOf = (error: ErrorObject): string[] =>
  error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
const pathOf = (parts: string[]): string =>
  parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');

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
