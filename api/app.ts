import Koa from 'koa';
import type { AppCustom, AppState, Deps } from './context';
import { clientAddress } from './middleware/client-address';
import { closeUnreadBody } from './middleware/close-unread-body';
import { errorHandler } from './middleware/error-handler';
import { rejectNul } from './middleware/reject-nul';
import { requestContext } from './middleware/request-context';
import { routes } from './routes';

export function createApp(deps: Deps): Koa<AppState, AppCustom> {
  const app = new Koa<AppState, AppCustom>();
  app.context.deps = deps;
  // Forwarded headers reach Koa only from a trusted proxy (clientAddress drops them from anyone else).
  app.proxy = true;
  app.silent = true; // errors are logged by the error handler, once, with the request id

  const router = routes();
  app
    .use(clientAddress(deps.config.trustedProxies))
    .use(requestContext())
    // Outside the error handler: it sees the answer as it will be sent, errors included.
    .use(closeUnreadBody())
    .use(errorHandler())
    .use(rejectNul())
    .use(router.routes())
    .use(router.allowedMethods());
  return app;
}
