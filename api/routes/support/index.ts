import Router from '@koa/router';
import type { AppCustom, AppState } from '../../context';
import { SUPPORT_CSP, SUPPORT_PAGE } from './page';

/**
 * `GET /support`: the page support staff use to find failed and stuck batches and retry them. Served
 * without a key, like /docs: the page holds no data; it asks the key-checked /Integration/Batches
 * operations with the key typed into it.
 */
export function supportRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.get('/support', (ctx) => {
    ctx.type = 'text/html';
    ctx.set('Content-Security-Policy', SUPPORT_CSP);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = SUPPORT_PAGE;
  });
  return router;
}
