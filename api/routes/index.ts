import Router from '@koa/router';
import type { AppCustom, AppState } from '../context';
import { authenticate } from '../middleware/authenticate';
import { accountRouter } from './account';
import { batchesRouter } from './batches';
import { docsRouter } from './docs';
import { documentsRouter } from './documents';
import { epcisRouter } from './epcis';
import { eventDetailsRouter } from './event-details';
import { eventsRouter } from './events';
import { healthRouter } from './health';
import { importsPageRouter, importsRouter } from './imports';
import { inventoryRouter } from './inventory';
import { jsonRouter } from './json';
import { ledgerRouter } from './ledger';
import { locationsRouter } from './locations';
import { metricsRouter } from './metrics';
import { openApiRouter } from './openapi';
import { productsRouter } from './products';
import { resolverRouter } from './resolver';
import { supportRouter } from './support';
import { tracePageRouter, traceRouter } from './trace';
import { recallsPageRouter, recallsRouter } from './recalls';
import { webhooksRouter } from './webhooks';

/** Every route of the service. Public routes first; everything under the key check after. */
export function routes(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  for (const open of [
    healthRouter(),
    openApiRouter(),
    docsRouter(),
    supportRouter(),
    tracePageRouter(),
    importsPageRouter(),
    recallsPageRouter(),
    metricsRouter(),
  ])
    router.use(open.routes());

  const secured = new Router<AppState, AppCustom>();
  secured.use(authenticate());
  const resources = [
    accountRouter(),
    locationsRouter(),
    productsRouter(),
    documentsRouter(),
    eventsRouter(),
    batchesRouter(),
    jsonRouter(),
    ledgerRouter(),
    inventoryRouter(),
    eventDetailsRouter(),
    traceRouter(),
    epcisRouter(),
    webhooksRouter(),
    recallsRouter(),
    resolverRouter(),
    importsRouter(),
  ];
  for (const resource of resources) secured.use(resource.routes(), resource.allowedMethods());
  router.use(secured.routes(), secured.allowedMethods());
  return router;
}
