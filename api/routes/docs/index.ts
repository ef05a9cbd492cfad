import Router from '@koa/router';
import type { AppCustom, AppState } from '../../context';
import { problem } from '../../errors';
import { DOCS_ASSETS, DOCS_PAGE } from './assets';

const cache = new Map<string, Buffer>();

/** `GET /docs`: Swagger UI over /openapi.json, to read the contract and try every operation with a key. */
export function docsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html';
    ctx.body = DOCS_PAGE;
  });
  router.get('/docs/:asset', (ctx) => {
    const name = ctx.params.asset;
    const asset = Object.hasOwn(DOCS_ASSETS, name) ? DOCS_ASSETS[name] : undefined;
    if (!asset) throw problem('unknown-docs-asset', { detail: `No docs asset named ${name}.` });
    let content = cache.get(name);
    if (!content) cache.set(name, (content = asset.load()));
    ctx.type = asset.type;
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = content;
  });
  return router;
}
