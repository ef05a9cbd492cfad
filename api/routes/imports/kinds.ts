/**
 * What a spreadsheet of each kind holds: one record per event of one type, location or product, its
 * columns derived from the very schemas POST /Integration/Events, /Locations and /Products validate with.
 */
import { othersChecked, type BorderCheckDeps } from '../../../batches/border-check';
import type { EventTypeName } from '../../../domain/events';
import { cellOf, columnsOf, type Column, type SchemaNode } from '../../../domain/spreadsheet-columns';
import { isEventKind, type ImportRules } from '../../../usecases/import-file';
import type { ImportKind } from '../../../domain/spreadsheet-rows';
import { eventExamples } from '../../../contract/events/examples';
import { event } from '../../../domain/schemas/events';
import { createLocationsSchema } from '../../../domain/schemas/locations';
import { createProductsSchema } from '../../../domain/schemas/products';

interface Conditional {
  if: { properties: { $type: { enum: readonly string[] } } };
  then: SchemaNode;
}

/** The event schema as one type sees it: the common fields and those its `$type` branch adds. */
function eventSchemaOf(type: EventTypeName): SchemaNode {
  const branches = (event.allOf as readonly Conditional[]).filter((b) => b.if.properties.$type.enum.includes(type));
  return {
    type: 'object',
    required: [...event.required, ...branches.flatMap((b) => b.then.required ?? [])],
    properties: { ...event.properties, ...Object.assign({}, ...branches.map((b) => b.then.properties)) },
  };
}

/**
 * Left out of every template: `$type` (the kind says it), the inline `Details` that create master data
 * inside an event (the locations and products templates create them), the lower-case `id` spelling.
 */
const EVENT_SKIP = ['$type', 'Details', 'id'];
const LOCATION_SKIP = ['id'];

const itemsOf = (schema: { properties: Record<string, unknown> }, list: string): SchemaNode =>
  (schema.properties[list] as { items: SchemaNode }).items;

export interface KindSpec {
  kind: ImportKind;
  /** The record schema (one event, location or product). */
  schema: SchemaNode;
  columns: Column[];
  /** The column whose value identifies a record: rows with the same value are one record with several lines. */
  key: string;
  example: Record<string, unknown>;
}

const specs = new Map<ImportKind, KindSpec>();

export function kindSpec(kind: ImportKind): KindSpec {
  const known = specs.get(kind);
  if (known) return known;
  let spec: KindSpec;
  if (isEventKind(kind)) {
    const schema = eventSchemaOf(kind);
    // A location reference needs its Id (domain/schemas/events.ts eventRuleErrors) where the reference itself is required.
    const columns = columnsOf(schema, { skip: EVENT_SKIP }).map((c) =>
      c.path.length === 2 && c.path[1] === 'Id' && !c.list && schema.required?.includes(c.path[0])
        ? { ...c, required: true }
        : c,
    );
    spec = { kind, schema, columns, key: 'Id', example: eventExamples[kind].event };
  } else if (kind === 'locations') {
    const schema = itemsOf(createLocationsSchema, 'Locations');
    spec = { kind, schema, columns: columnsOf(schema, { skip: LOCATION_SKIP }), key: 'Id', example: { Id: 'LOC-1' } };
  } else {
    const schema = itemsOf(createProductsSchema, 'Products');
    spec = { kind, schema, columns: columnsOf(schema), key: 'Id', example: {} };
  }
  specs.set(kind, spec);
  return spec;
}

/** The template's example row: the OpenAPI example of the type where it has the field, else the schema's example. */
export const exampleRow = (spec: KindSpec): (string | number | null)[] =>
  spec.columns.map((c) => cellOf(spec.example, c) ?? c.example);

/** The import's rules as the API runs them, the pipeline's checks on the service's database. */
export const importRules = (deps: BorderCheckDeps): ImportRules => ({
  spec: kindSpec,
  othersChecked: (account, events, skip) => othersChecked(deps, account, events, skip),
});
