import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ERRORS, isErrorCode, typeOf, type ErrorCode } from '../../contract/error-catalogue';
import { routes } from '../../api/routes';
import { EVENT_TYPE_NAMES } from '../../domain/events';
import { createAccount } from '../factories/accounts';
import { ContractChecker, routeKey, type OpenApiLike, type Route } from '../helpers/contract';
import { apiUrl, client, request } from '../helpers/http';

type Operation = {
  operationId: string;
  security?: unknown[];
  parameters?: { name: string; in: string; schema: unknown }[];
  requestBody?: {
    content: Record<
      string,
      { schema: unknown; example?: unknown; examples?: Record<string, { summary: string; value: unknown }> }
    >;
  };
  responses: Record<string, { content?: Record<string, { schema: unknown; example?: unknown }> }>;
};
type Document = OpenApiLike & {
  openapi: string;
  security: unknown[];
  paths: Record<string, Record<string, Operation>>;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

async function served(): Promise<Document> {
  const response = await request<Document>('GET', '/openapi.json');
  expect(response.status).toBe(200);
  return response.body;
}

const operationsOf = (doc: Document): (Route & { op: Operation })[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );

/** What the Koa router really serves, read from its layers: `/:id` becomes `/{id}`, HEAD goes with GET. */
function routerRoutes(): Route[] {
  return routes()
    .stack.filter((layer) => layer.methods.length > 0)
    .flatMap((layer) =>
      layer.methods
        .filter((m) => m !== 'HEAD' && m !== 'OPTIONS')
        .map((method) => ({ method, path: String(layer.path).replace(/:([A-Za-z0-9_]+)/g, '{$1}') })),
    );
}

describe('GET /openapi.json', () => {
  it('is served without a key and is a valid OpenAPI 3.1 document', async () => {
    const doc = await served();
    expect(doc.openapi).toBe('3.1.0');
    // swagger-parser dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('holds only valid JSON Schema 2020-12 (the OpenAPI 3.1 dialect), with no ajv-only keyword', async () => {
    const doc = (await served()) as Document & { components: { schemas: Record<string, unknown> } };
    const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, strictRequired: false });
    addFormats(ajv);
    // OpenAPI 3.1's own additions to the dialect, and specification extensions.
    ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
    const schemas: unknown[] = [...Object.values(doc.components.schemas)];
    for (const { op } of operationsOf(doc)) {
      schemas.push(...(op.parameters ?? []).map((p) => p.schema));
      for (const m of Object.values(op.requestBody?.content ?? {})) schemas.push(m.schema);
      for (const r of Object.values(op.responses))
        for (const m of Object.values(r.content ?? {})) schemas.push(m.schema);
    }
    const extensions = new Set<string>();
    JSON.stringify(schemas, (key, value: unknown) => {
      if (key.startsWith('x-')) extensions.add(key);
      return value;
    });
    if (extensions.size) ajv.addVocabulary([...extensions]);
    const anchored = (schema: unknown) =>
      JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/schemas/', '"https://contract.local/components#/$defs/'),
      ) as object;
    ajv.addSchema({ $id: 'https://contract.local/components', $defs: anchored(doc.components.schemas) });
    for (const schema of schemas) expect(() => ajv.compile(anchored(schema))).not.toThrow();
  });

  it('names exactly the operations the router serves', async () => {
    const doc = await served();
    const documented = new Set(operationsOf(doc).map(routeKey));
    const actual = routerRoutes().map(routeKey);
    expect(actual.length).toBeGreaterThan(0);
    expect(actual.filter((route) => !documented.has(route))).toEqual([]);
    expect([...documented].filter((route) => !actual.includes(route))).toEqual([]);
  });

  it('asks for the apiKey header on every operation but health, docs, metrics and the pages (with their scripts)', async () => {
    const doc = (await served()) as Document & { components: { securitySchemes: Record<string, unknown> } };
    expect(doc.components.securitySchemes.apiKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-KEY' }),
    );
    expect(doc.security).toEqual([{ apiKey: [] }]);
    const open = operationsOf(doc)
      .filter(({ op }) => op.security?.length === 0)
      .map(routeKey)
      .sort();
    expect(open).toEqual([
      'GET /docs',
      'GET /docs/{asset}',
      'GET /healthz',
      'GET /imports',
      'GET /imports/page.js',
      'GET /metrics',
      'GET /openapi.json',
      'GET /readyz',
      'GET /recalls',
      'GET /recalls/page.js',
      'GET /support',
      'GET /support/page.js',
      'GET /trace',
      'GET /trace/page.js',
    ]);
  });

  it('documents for every operation its errors: 400 and 401 when keyed, 413 and 415 with a JSON body, 431 and 500 always, each with a body schema but 431 and 204', async () => {
    for (const { method, path, op } of operationsOf(await served())) {
      const statuses = Object.keys(op.responses);
      const json = Object.keys(op.requestBody?.content ?? {}).includes('application/json');
      const expected = [
        '431',
        '500',
        ...(op.security?.length === 0 ? [] : ['400', '401']),
        ...(op.requestBody ? ['413'] : []),
        ...(json ? ['415'] : []),
      ];
      expect({ route: `${method} ${path}`, missing: expected.filter((s) => !statuses.includes(s)) }).toEqual({
        route: `${method} ${path}`,
        missing: [],
      });
      for (const [status, response] of Object.entries(op.responses)) {
        // Node answers 431 itself, before the service sees the request: it has no body; a 204 (GS1's DELETEs)
        // and a 101 (a WebSocket upgrade, whose messages follow on the socket) have none by definition.
        const content = Object.keys(response.content ?? {}).length > 0;
        expect({ route: `${method} ${path} ${status}`, content }).toEqual({
          route: `${method} ${path} ${status}`,
          content: !['431', '204', '101'].includes(status),
        });
      }
    }
  });

  it('every example in the document matches the schema beside it', async () => {
    const doc = await served();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc as object, 'https://contract.local/openapi.json');
    const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
    let checked = 0;
    for (const { method, path, op } of operationsOf(doc)) {
      const base = `https://contract.local/openapi.json#/paths/${esc(path)}/${method.toLowerCase()}`;
      const media = [
        ...Object.entries(op.requestBody?.content ?? {}).map(
          ([type, m]) => [`${base}/requestBody/content/${esc(type)}`, m] as const,
        ),
        // Named examples: each value is checked against the media type's schema like a single example.
        ...Object.entries(op.requestBody?.content ?? {}).flatMap(([type, m]) =>
          Object.entries(m.examples ?? {}).map(
            ([name, e]) => [`${base}/requestBody/content/${esc(type)}`, { example: e.value, name }] as const,
          ),
        ),
        ...Object.entries(op.responses).flatMap(([status, r]) =>
          Object.entries(r.content ?? {}).map(
            ([type, m]) => [`${base}/responses/${status}/content/${esc(type)}`, m] as const,
          ),
        ),
      ];
      for (const [pointer, m] of media) {
        if (m.example === undefined) continue;
        const validate = ajv.compile({ $ref: `${pointer}/schema` });
        expect({ pointer, ok: validate(m.example), errors: validate.errors ?? null }).toEqual({
          pointer,
          ok: true,
          errors: null,
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});

describe('the problems of /openapi.json', () => {
  it('name every code of the catalogue, and each example problem has a catalogued code of its status and type', async () => {
    const doc = (await served()) as Document & {
      components: { schemas: { Problem: { properties: { code: { enum: string[] } } } } };
    };
    expect(doc.components.schemas.Problem.properties.code.enum).toEqual(Object.keys(ERRORS));
    const examples = operationsOf(doc).flatMap(({ method, path, op }) =>
      Object.entries(op.responses).flatMap(([status, r]) => {
        const example = r.content?.['application/problem+json']?.example as
          { code?: string; type?: string } | undefined;
        return example ? [{ at: `${method} ${path} ${status}`, status: Number(status), example }] : [];
      }),
    );
    expect(examples.length).toBeGreaterThan(100);
    for (const { at, status, example } of examples) {
      const code = example.code as ErrorCode;
      expect({ at, catalogued: isErrorCode(code) }).toEqual({ at, catalogued: true });
      expect({ at, status: ERRORS[code].status, type: example.type }).toEqual({ at, status, type: typeOf(code) });
    }
  });
});

describe('the examples of /openapi.json', () => {
  const EVENT_ROUTES = ['/Integration/Events', '/Integration/Events/async'];
  type Examples = Record<string, { summary: string; value: { Events: { $type: string; Id: string }[] } }>;
  const examplesOf = (doc: Document, path: string): Examples =>
    (doc.paths[path].post.requestBody?.content['application/json'].examples ?? {}) as Examples;

  it('give both event endpoints one example per event type, each of that type', async () => {
    const doc = await served();
    for (const path of EVENT_ROUTES) {
      const examples = examplesOf(doc, path);
      expect({ path, types: Object.keys(examples).sort() }).toEqual({ path, types: [...EVENT_TYPE_NAMES].sort() });
      for (const [type, example] of Object.entries(examples))
        expect(example.value.Events.map((e) => e.$type)).toEqual([type]);
    }
  });

  it('are each accepted by POST /Integration/Events, in the order they are listed, without a GDST warning', async () => {
    const account = await createAccount('openapi-examples');
    const api = client(account.key);
    for (const [type, example] of Object.entries(examplesOf(await served(), '/Integration/Events'))) {
      const response = await api.post('/Integration/Events', example.value);
      expect({ type, status: response.status, errors: response.body.errors }).toEqual({
        type,
        status: 200,
        errors: undefined,
      });
      const [result] = response.body.result;
      expect({ type, status: result.status, id: result.externalEventId, warnings: result.warnings }).toEqual({
        type,
        status: 'Created',
        id: example.value.Events[0].Id,
        warnings: undefined,
      });
    }
    const inventory = await api.get('/Integration/Inventory?ProductIds=COD-FILLET');
    expect(inventory.status).toBe(200);
    expect(inventory.text).toContain('"quantityAvailable":400');
  });

  it('opens /docs on the business routes: Events first, health, metrics and the docs themselves last', async () => {
    const tags = ((await served()) as Document & { tags: { name: string }[] }).tags.map((t) => t.name);
    expect(tags.slice(0, 3)).toEqual(['Events', 'Locations', 'Products']);
    expect(tags.slice(-3)).toEqual(['Docs', 'Health', 'Metrics']);
  });

  it('says what every group of /docs is for', async () => {
    const tags = ((await served()) as Document & { tags: { name: string; description?: string }[] }).tags;
    expect(tags.filter((t) => !t.description).map((t) => t.name)).toEqual([]);
  });
});

describe('the response check every test runs (test/helpers/contract.ts)', () => {
  let checker: ContractChecker;
  beforeAll(async () => {
    checker = new ContractChecker((await (await fetch(`${apiUrl()}/openapi.json`)).json()) as OpenApiLike);
  });

  it('accepts a documented status with a conforming body', () => {
    expect(
      checker.problemWith('GET', '/healthz', 200, 'application/json; charset=utf-8', { status: 'ok' }),
    ).toBeUndefined();
  });

  it('refuses a body off its schema', () => {
    expect(checker.problemWith('GET', '/healthz', 200, 'application/json', { status: 'fine' })).toMatch(
      /does not match the document/,
    );
  });

  it('refuses a status the operation does not document', () => {
    expect(checker.problemWith('GET', '/Integration/Account', 418, 'application/json', {})).toMatch(
      /status 418 is not documented/,
    );
  });

  it('refuses an undocumented content type', () => {
    expect(checker.problemWith('GET', '/healthz', 200, 'text/html', '<p>ok</p>')).toMatch(
      /content type "text\/html" is not documented/,
    );
  });

  it('refuses a 2xx from a route the document does not know', () => {
    expect(checker.problemWith('GET', '/Integration/Unknown', 200, 'application/json', {})).toMatch(/no operation/);
  });

  it('matches path templates with literal segments first', () => {
    expect(checker.problemWith('GET', '/docs/swagger-ui.css', 200, 'text/css', 'body{}')).toBeUndefined();
  });
});
