import Router from '@koa/router';
import type { AppCustom, AppState } from '../../context';
import { openApiDocument } from '../../../contract/openapi/document';

/** `GET /openapi.json`: the contract, public so that tools (and the docs page) can read it before a key exists. */
export function openApiRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument();
  });
  return router;
}
