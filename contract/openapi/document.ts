import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../platform/config';
import { componentSchemas, problemResponse, ref } from './components';
import { type OperationSpec, type RequestBodySpec, type ResponseSpec, operationIdOf } from './operation';
import { operations as allOperations } from './operations';
import { type JsonSchema, publishSchema } from './schema';

type Json = { [key: string]: unknown };

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: Json;
  servers?: Json[];
  tags: Json[];
  security: Json[];
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Json; headers: Json };
}

/**
 * The groups of /docs, in the order Swagger UI shows them: what an integrator calls first (events and
 * the master data they name) at the top, the service's own plumbing (health, metrics, the docs) last.
 */
const TAGS: Record<string, string> = {
  Events: 'Supply-chain events, in batches of up to 1,000: every event type has an example in the request body list.',
  Locations: 'Locations and vessels with their trade partners, by your own ids.',
  Products: 'Products, by your own ids.',
  Documents: 'Supporting documents (certificates, invoices) that events attach by id.',
  Imports: 'CSV and XLSX spreadsheets of events, locations or products, through the same pipeline; their templates.',
  Batches: 'Every event request is a batch: list them, see one, retry a failed one.',
  Queries: 'Inventory timeline and the event details of a lot.',
  Trace: 'Trace a lot backward and forward across accounts, recall, FSMA 204 spreadsheet.',
  Recalls:
    'Issue a recall of a lot: every account holding it, or a lot made from it, gets a notice telling it only what its own trace shows, ' +
    'and acknowledges it with what it still holds. Each says where it stands (state: open, notified, acknowledged); the /recalls page shows them.',
  Ledger: 'The hash chain of commission events.',
  EPCIS: 'GS1 EPCIS 2.0 repository (capture and query).',
  'EPCIS queries':
    'Named EPCIS 2.0 queries: save the parameters of GET /epcis/events under a name, run it by name, and subscribe a URL to it: each ' +
    'batch’s new matching events as it completes (stream), or on a schedule. Reports are signed (GS1-Signature) and retried for 72 hours.',
  Webhooks:
    'Your URLs that receive batch results, recall notices and acknowledgements as they happen, signed the Standard Webhooks way. ' +
    'Deliveries are retried in order for 72 hours; an endpoint whose retries ran out is Failing (listed on /support) until you redeliver.',
  Account: 'The account of the API key.',
  Docs: 'This page, the OpenAPI document, and the trace, recalls, support and imports pages.',
  Health: 'Liveness and readiness checks.',
  Metrics: 'Prometheus metrics.',
};

const PLUMBING = new Set(['Docs', 'Health', 'Metrics']);

const REQUEST_ID_HEADER = { $ref: '#/components/headers/X-Request-Id' };

/** The answers every operation can give besides its own: key problems, parser problems, 500. */
function sharedResponses(spec: OperationSpec): Record<number, ResponseSpec[]> {
  const shared: Record<number, ResponseSpec[]> = {};
  const add = (status: number, response: ResponseSpec) => (shared[status] ??= []).push(response);
  if (!spec.public) {
    add(400, {
      ...problemResponse('X-API-KEY missing or empty, or the request failed validation.', 'missing-api-key', {
        errors: { 'X-API-KEY': ['The apiKey field is required.'] },
      }),
      // With a body, the JSON parser's own 400 (malformed JSON) carries no `errors`.
      schema: ref(spec.requestBody ? 'Problem' : 'ValidationProblem'),
    });
    add(401, problemResponse('The API key is not valid (unknown or revoked).', 'invalid-api-key'));
    add(429, {
      ...problemResponse(
        'Too many requests: the API key is past its rate (RateLimit-Policy), or this address sent too many wrong keys. Send again after Retry-After seconds. ' +
          'Under /epcis the body is the EPCIS exception epcisException:ImplementationException.',
        'too-many-requests',
        {
          detail:
            'Too many requests with this API key: it may make 50 a second and 500 more a minute above that; send again after 1 s (Retry-After).',
        },
      ),
      headers: ['Retry-After', 'RateLimit-Policy', 'RateLimit'],
    });
  } else if (spec.requestBody) {
    add(
      400,
      problemResponse('The body is not valid JSON.', 'malformed-json', {
        detail: 'The request body is not valid JSON: Unexpected end of JSON input',
      }),
    );
  }
  if (spec.requestBody) {
    add(
      413,
      problemResponse('The body is larger than the service accepts.', 'body-too-large', {
        detail: 'The request body is too large: at most 25 MB.',
      }),
    );
  }
  if (spec.requestBody && (spec.requestBody.contentType ?? 'application/json') === 'application/json') {
    add(
      415,
      problemResponse('The body is not sent as application/json; `accepted` lists the media types taken.', 'not-json', {
        detail: 'The request body must be JSON: send Content-Type: application/json (got text/plain).',
        accepted: ['application/json'],
      }),
    );
  }
  // Node's HTTP server answers this itself, before any route: a URL or headers over its 16 KB limit.
  add(431, { description: 'The request line or headers are larger than 16 KB (answered without a body).' });
  add(
    503,
    problemResponse(
      'PostgreSQL or Temporal is unavailable for a moment (restarting): send the request again.',
      'database-unavailable',
    ),
  );
  add(
    500,
    problemResponse('An unexpected error; the details are in the service log under the traceId.', 'unexpected-error'),
  );
  return shared;
}

/** `object` without its undefined members: what a spec leaves out, the document leaves out. */
const present = (object: Json): Json =>
  Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));

/** A media type's entry of a body: its schema, and its examples when there are any. */
const mediaObject = (schema: JsonSchema, example?: unknown, examples?: unknown): Json =>
  present({ schema: publishSchema(schema), example, examples });

/** An operation's request body: its media type and each alternative one, with its schema and examples. */
const requestBodyObject = (body: RequestBodySpec): Json =>
  present({
    required: true,
    description: body.description,
    content: {
      [body.contentType ?? 'application/json']: mediaObject(body.schema, body.example, body.examples),
      ...Object.fromEntries((body.alternatives ?? []).map((a) => [a.contentType, mediaObject(a.schema, a.example)])),
    },
  });

function responseObject(responses: ResponseSpec[]): Json {
  const content: Record<string, Json> = {};
  for (const r of responses) {
    if (!r.schema) continue;
    for (const type of [r.contentType ?? 'application/json'].flat()) {
      const existing = content[type];
      const media = mediaObject(r.schema, r.example);
      // The operation's own answer comes first and wins; a shared one of the same media type widens it.
      content[type] = existing ? { ...existing, schema: { anyOf: [existing.schema, media.schema] } } : media;
    }
  }
  return {
    description: responses.map((r) => r.description).join(' Or: '),
    headers: Object.fromEntries([
      ['X-Request-Id', REQUEST_ID_HEADER],
      ...responses.flatMap((r) => r.headers ?? []).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
    ]),
    ...(Object.keys(content).length ? { content } : {}),
  };
}

function parametersOf(spec: OperationSpec): Json[] {
  const parameters: Json[] = [];
  const fromObject = (where: 'query' | 'header' | 'path', schema: JsonSchema | undefined) => {
    if (!schema) return;
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      const { description, example, ...rest } = property;
      const schema = publishSchema(rest);
      parameters.push(
        present({ name, in: where, required: where === 'path' || required.has(name), description, schema, example }),
      );
    }
  };
  const templateParams = [...spec.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  fromObject(
    'path',
    spec.pathParams ?? {
      properties: Object.fromEntries(templateParams.map((name) => [name, { type: 'string', minLength: 1 }])),
    },
  );
  fromObject('query', spec.query);
  fromObject('header', spec.headers);
  const declared = parameters.filter((p) => p.in === 'path').map((p) => p.name);
  if (declared.join() !== templateParams.join()) {
    throw new Error(
      `${spec.method.toUpperCase()} ${spec.path}: path parameters ${declared.join(', ')} do not match the template.`,
    );
  }
  return parameters;
}

function operationObject(spec: OperationSpec): Json {
  const statuses = new Map<number, ResponseSpec[]>();
  for (const [status, response] of Object.entries(spec.responses))
    if (response) statuses.set(Number(status), [response].flat());
  for (const [status, responses] of Object.entries(sharedResponses(spec))) {
    statuses.set(Number(status), [...(statuses.get(Number(status)) ?? []), ...responses]);
  }
  const responses = Object.fromEntries(
    [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, list]) => [String(status), responseObject(list)]),
  );
  const parameters = parametersOf(spec);
  return present({
    operationId: operationIdOf(spec),
    summary: spec.summary,
    description: spec.description,
    tags: spec.tags,
    security: spec.public ? [] : undefined,
    parameters: parameters.length ? parameters : undefined,
    requestBody: spec.requestBody && requestBodyObject(spec.requestBody),
    responses,
  });
}

const packageVersion = (): string =>
  (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export function buildOpenApiDocument(operations: readonly OperationSpec[] = allOperations): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const ids = new Set<string>();
  for (const spec of operations) {
    const item = (paths[spec.path] ??= {});
    if (item[spec.method]) throw new Error(`Two operations for ${spec.method.toUpperCase()} ${spec.path}.`);
    const object = operationObject(spec);
    if (ids.has(object.operationId as string)) throw new Error(`Duplicate operationId ${String(object.operationId)}.`);
    ids.add(object.operationId as string);
    item[spec.method] = object;
  }
  const used = new Set(operations.flatMap((o) => o.tags));
  // A tag TAGS does not name yet still shows, after the business groups and before the plumbing.
  const unlisted = [...used].filter((name) => !Object.hasOwn(TAGS, name)).map((name) => ({ name }));
  const listed = Object.entries(TAGS)
    .filter(([name]) => used.has(name))
    .map(([name, description]) => ({ name, description }));
  const plumbing = listed.findIndex((t) => PLUMBING.has(t.name));
  const tags =
    plumbing < 0 ? [...listed, ...unlisted] : [...listed.slice(0, plumbing), ...unlisted, ...listed.slice(plumbing)];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Supply-chain traceability service',
      version: packageVersion(),
      description:
        'Master data, documents, supply-chain events, inventory and event-detail queries, scoped to the account of the API key. ' +
        'Send the key in the X-API-KEY header ("Authorize" on the docs page). Every response carries X-Request-Id; ' +
        'problem bodies repeat it as traceId.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    tags,
    security: [{ apiKey: [] }],
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries(componentSchemas).map(([name, schema]) => [name, publishSchema(schema)]),
      ),
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-KEY',
          description: 'The account API key (`npm run apikey -- create`).',
        },
      },
      headers: {
        'X-Request-Id': {
          description: 'The request id: the one the caller sent in X-Request-Id when it is sane, else a generated one.',
          required: true,
          schema: { type: 'string' },
        },
        'Retry-After': {
          description: 'Seconds to wait before sending the request again.',
          required: true,
          schema: { type: 'integer', minimum: 1 },
        },
        'RateLimit-Policy': {
          description:
            'The key\'s limits (draft-ietf-httpapi-ratelimit-headers): `"per-key";q=50;w=1, "burst";q=500;w=60` is 50 requests a second and 500 more a minute above that; `"failed-keys";q=30;w=60` is the wrong keys an address may send a minute.',
          schema: { type: 'string' },
        },
        RateLimit: {
          description:
            'What is left of the policy (draft-ietf-httpapi-ratelimit-headers): `"per-key";r=12;t=1` is 12 requests left in a window that ends in 1 s.',
          schema: { type: 'string' },
        },
        'Preference-Applied': {
          description:
            'The Prefer header’s `wait` was applied (RFC 7240): `wait=30` is the longest the answer could wait, not how long it did.',
          schema: { type: 'string' },
        },
      },
    },
  };
}

let cached: OpenApiDocument | undefined;

/** Built once per process: the routes and their schemas do not change while it runs. */
export const openApiDocument = (): OpenApiDocument => (cached ??= buildOpenApiDocument());
