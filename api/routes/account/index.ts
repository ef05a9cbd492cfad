import Router from '@koa/router';
import type { AppCustom, AppState } from '../../context';

/** `GET /Integration/Account`: which account the presented key belongs to (a cheap key check for integrators). */
export function accountRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.get('/Integration/Account', (ctx) => {
    const { account } = ctx.state;
    ctx.body = { id: account.id, name: account.name, createdTime: account.createdAt.toISOString() };
  });
  return router;
}
