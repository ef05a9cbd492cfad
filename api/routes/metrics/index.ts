import Router from '@koa/router';
import { registry } from '../../../platform/metrics';
import type { AppCustom, AppState } from '../../context';

/**
 * `GET /metrics`: Prometheus text format, no key, like the health routes. It tells anyone who can read
 * it about traffic and routes, so it is meant for the internal network: do not route it through a
 * public load balancer (README.md, Metrics).
 */
export function metricsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.get('/metrics', async (ctx) => {
    ctx.body = await registry.metrics();
    ctx.type = registry.contentType;
  });
  return router;
}
