import type { JsonSchema } from './schema';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  /** Body schema; omit for a response without a body. */
  schema?: JsonSchema;
  /** `application/json` unless said (problems: `application/problem+json`, metrics: `text/plain`); several share the schema. */
  contentType?: string | readonly string[];
  /** Taken from SPEC.md where it shows one. */
  example?: unknown;
  /** Response headers besides X-Request-Id, by their name in components.headers. */
  headers?: readonly string[];
}

export interface RequestBodySpec {
  schema: JsonSchema;
  contentType?: string;
  description?: string;
  example?: unknown;
  /** Several named examples (Swagger UI offers them in a list); each `value` is a whole body. */
  examples?: Record<string, { summary: string; value: unknown }>;
  /** Further media types the operation takes, each with its own schema (EPCIS XML beside JSON-LD). */
  alternatives?: { contentType: string; schema: JsonSchema; example?: unknown }[];
}

/**
 * One operation of the service, declared beside its route with the very schema objects the route
 * hands to `validate(...)`; contract/openapi/document.ts turns the list into the published document.
 */
export interface OperationSpec {
  method: HttpMethod;
  /** OpenAPI form: `/Integration/Locations/{id}` for the router's `/Integration/Locations/:id`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Defaults to method + path in camelCase (`getIntegrationLocationsById`). */
  operationId?: string;
  /** Served without an X-API-KEY (health, docs, metrics). */
  public?: boolean;
  /** An object schema, as given to validate({ query: schema }): each property is one query parameter. */
  query?: JsonSchema;
  /** An object schema over lower- or mixed-case header names: each property is one header parameter. */
  headers?: JsonSchema;
  /** An object schema of the path parameters; without it each `{name}` is a required string. */
  pathParams?: JsonSchema;
  requestBody?: RequestBodySpec;
  /** Every status the operation itself can answer (several media types of one status: a list); the builder adds the ones every operation shares. */
  responses: Partial<Record<number, ResponseSpec | ResponseSpec[]>>;
}

/** Declares an operation; a function rather than a bare object so the declaration is type-checked in place. */
export const operation = (spec: OperationSpec): OperationSpec => spec;

/** Declares the operations of one group of /docs: each gets the group's tag. */
export const taggedOperation =
  (tag: string) =>
  (spec: Omit<OperationSpec, 'tags'>): OperationSpec =>
    operation({ ...spec, tags: [tag] });

const docsOperation = taggedOperation('Docs');

/**
 * A page of the service (HTML, served without a key, in the Docs group) and its script: web/<name>.ts,
 * bundled by the service (`bundled` says how when there is more to say).
 */
export const pageOperations = (
  name: string,
  description: string,
  bundled = `web/${name}.ts, bundled by the service`,
): OperationSpec[] => [
  docsOperation({
    method: 'get',
    path: `/${name}`,
    summary: `The ${name} page`,
    description,
    public: true,
    responses: { 200: { description: 'The HTML page.', contentType: 'text/html', schema: { type: 'string' } } },
  }),
  docsOperation({
    method: 'get',
    path: `/${name}/page.js`,
    summary: `The ${name} page’s script`,
    description: `${bundled}. Kept for a year when asked for with the \`v\` the page names.`,
    public: true,
    responses: { 200: { description: 'The script.', contentType: 'text/javascript', schema: { type: 'string' } } },
  }),
];

export const operationIdOf = (spec: OperationSpec): string =>
  spec.operationId ??
  spec.method +
    spec.path
      .split('/')
      .filter(Boolean)
      .map((part) => {
        const param = /^\{(.+)\}$/.exec(part);
        const word = param ? `By-${param[1]}` : part;
        return word
          .split(/[^A-Za-z0-9]+/)
          .filter(Boolean)
          .map((w) => w[0].toUpperCase() + w.slice(1))
          .join('');
      })
      .join('');
