import Router from '@koa/router';
import type { AppCustom, AppState } from '../context';
import { authenticate } from '../middleware/authenticate';
import { accountRouter } from './account';
import { docsRouter } from './docs';
import { healthRouter } from './health';
import { metricsRouter } from './metrics';
import { openApiRouter } from './openapi';

/** Every route of the service. Public routes first; everything under the key check after. */
export function routes(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  for (const open of [healthRouter(), openApiRouter(), docsRouter(), metricsRouter()]) router.use(open.routes());

  const secured = new Router<AppState, AppCustom>();
  secured.use(authenticate());
  for (const resource of [accountRouter()]) secured.use(resource.routes(), resource.allowedMethods());
  router.use(secured.routes(), secured.allowedMethods());
  return router;
}
