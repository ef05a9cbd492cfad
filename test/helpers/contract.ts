import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

interface MediaType {
  schema?: unknown;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
}
export interface OpenApiLike {
  paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
}

export interface Route {
  method: string;
  /** OpenAPI template: `/Integration/Locations/{id}`. */
  path: string;
}

const templateRegex = (template: string): RegExp =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);

/** The template among `templates` that `path` (a concrete path, no query) falls under; literal segments win. */
export function matchTemplate(templates: readonly string[], path: string): string | undefined {
  const ranked = [...templates].sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  return ranked.find((t) => templateRegex(t).test(path));
}

export const routeKey = (route: Route): string => `${route.method.toUpperCase()} ${route.path}`;

/** Checks one HTTP exchange against the OpenAPI document: its operation, its status, its body. */
export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiLike) {
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, 'https://contract.local/openapi.json');
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `https://contract.local/openapi.json#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  /** Undefined when the exchange conforms; otherwise why not, for a failing test to print. */
  problemWith(
    method: string,
    url: string,
    status: number,
    contentType: string | null,
    body: unknown,
  ): string | undefined {
    const path = new URL(url, 'http://x').pathname;
    const verb = method.toLowerCase();
    const documented = Object.keys(this.document.paths).filter((t) => this.document.paths[t][verb]);
    const template = matchTemplate(documented, path);
    const exchange = `${method.toUpperCase()} ${path} → ${status}`;
    if (!template) {
      // No route at all: the service can only have answered with a problem (404, 405, a parser 400).
      if (status >= 400) return this.check('/components/schemas/Problem', body, exchange);
      return `${exchange}: no operation in /openapi.json for this request. Declare one in contract/<resource>/openapi.ts.`;
    }
    const escaped = template.replace(/~/g, '~0').replace(/\//g, '~1');
    const responses = this.document.paths[template][verb].responses;
    const response = responses[String(status)] ?? responses.default;
    if (!response) {
      return `${exchange}: status ${status} is not documented for ${method.toUpperCase()} ${template} (documented: ${Object.keys(responses).join(', ')}).`;
    }
    const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (!response.content) {
      return body === undefined || body === ''
        ? undefined
        : `${exchange}: the document says no body, the service sent ${media || 'one'}.`;
    }
    if (!response.content[media]) {
      return `${exchange}: content type "${media}" is not documented (documented: ${Object.keys(response.content).join(', ')}).`;
    }
    if (!media.endsWith('json')) return undefined;
    const key = String(status) in responses ? String(status) : 'default';
    return this.check(
      `/paths/${escaped}/${verb}/responses/${key}/content/${media.replace(/\//g, '~1')}/schema`,
      body,
      exchange,
    );
  }

  private check(pointer: string, body: unknown, exchange: string): string | undefined {
    const validate = this.validator(pointer);
    if (validate(body)) return undefined;
    return `${exchange}: the body does not match the document (${pointer}):\n${this.ajv.errorsText(validate.errors, { separator: '\n' })}\nbody: ${JSON.stringify(body).slice(0, 2000)}`;
  }
}
