import Router from '@koa/router';
import type { AppCustom, AppState } from '../../context';
import { problem } from '../../errors';

/** Unauthenticated: process liveness, and readiness of the two services the API depends on. */
export function healthRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    const { sequelize, temporal } = ctx.deps;
    const [database, temporalServer] = await Promise.all([
      sequelize.query('SELECT 1').then(() => 'ok', (e: Error) => e.message),
      temporal.connection.workflowService.getSystemInfo({}).then(() => 'ok', (e: Error) => e.message),
    ]);
    const checks = { database, temporal: temporalServer };
    if (database !== 'ok' || temporalServer !== 'ok') throw problem(503, 'The service is not ready.', { checks });
    ctx.body = { status: 'ok', checks };
  });

  return router;
}
