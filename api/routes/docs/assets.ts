import fs from 'node:fs';
import path from 'node:path';
import { HEADER_STYLE, headerMarkup } from '../../browser-page';
import { DOCS_ASSET_TYPES, type DocsAssetName } from '../../../contract/docs/openapi';

/** Where swagger-ui-dist keeps its prebuilt files: served from node_modules, never from a CDN. */
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/**
 * The page's start-up script, a file rather than inline so the page works under a strict CSP.
 * validatorUrl null: Swagger UI would otherwise send the document to an online validator for its badge.
 */
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    displayRequestDuration: true,
    // Groups open, operations closed: the page starts on the list of business routes (Events first).
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

interface Asset {
  type: string;
  load(): Buffer;
}

const fromPackage = (file: Exclude<DocsAssetName, 'init.js'>): Asset => ({
  type: DOCS_ASSET_TYPES[file],
  load: () => fs.readFileSync(path.join(SWAGGER_UI_DIR, file)),
});

/** The files of the published list of /docs/{asset} (contract/docs/openapi.ts), each loaded on request. */
export const DOCS_ASSETS: Record<string, Asset> = {
  'swagger-ui.css': fromPackage('swagger-ui.css'),
  'swagger-ui-bundle.js': fromPackage('swagger-ui-bundle.js'),
  'favicon-32x32.png': fromPackage('favicon-32x32.png'),
  'init.js': { type: DOCS_ASSET_TYPES['init.js'], load: () => Buffer.from(INIT_SCRIPT) },
} satisfies Record<DocsAssetName, Asset>;

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Traceability service API</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <style>body { margin: 0; }${HEADER_STYLE}</style>
</head>
<body>
${headerMarkup('API reference', 'docs')}
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;
