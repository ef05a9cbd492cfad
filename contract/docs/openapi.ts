import { problemResponse } from '../openapi/components';
import { taggedOperation } from '../openapi/operation';

const operation = taggedOperation('Docs');

/** The only files /docs/{asset} serves, with their media types (api/routes/docs/assets.ts loads them). */
export const DOCS_ASSET_TYPES = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'application/javascript',
  'favicon-32x32.png': 'image/png',
  'init.js': 'application/javascript',
} as const;
export type DocsAssetName = keyof typeof DOCS_ASSET_TYPES;

export const docsOperations = [
  operation({
    method: 'get',
    path: '/docs',
    summary: 'This reference, as an interactive page',
    description:
      'Swagger UI served from the service itself (works offline). "Authorize" takes an API key for "Try it out".',
    public: true,
    responses: { 200: { description: 'The HTML page.', contentType: 'text/html', schema: { type: 'string' } } },
  }),
  operation({
    method: 'get',
    path: '/docs/{asset}',
    summary: 'A file of the docs page (script, style sheet, icon)',
    public: true,
    pathParams: { type: 'object', properties: { asset: { type: 'string', enum: Object.keys(DOCS_ASSET_TYPES) } } },
    responses: {
      200: {
        description: 'The file.',
        contentType: [...new Set(Object.values(DOCS_ASSET_TYPES))],
        schema: { type: 'string' },
      },
      404: problemResponse('No such file.', 'unknown-docs-asset'),
    },
  }),
];
