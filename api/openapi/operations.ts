import { accountOperations } from '../routes/account/openapi';
import { batchesOperations } from '../routes/batches/openapi';
import { docsOperations } from '../routes/docs/openapi';
import { documentsOperations } from '../routes/documents/openapi';
import { epcisOperations } from '../routes/epcis/openapi';
import { eventDetailsOperations } from '../routes/event-details/openapi';
import { eventsOperations } from '../routes/events/openapi';
import { healthOperations } from '../routes/health/openapi';
import { importsOperations } from '../routes/imports/openapi';
import { inventoryOperations } from '../routes/inventory/openapi';
import { jsonOperations } from '../routes/json/openapi';
import { ledgerOperations } from '../routes/ledger/openapi';
import { locationsOperations } from '../routes/locations/openapi';
import { metricsOperations } from '../routes/metrics/openapi';
import { openApiOperations } from '../routes/openapi/openapi';
import { productsOperations } from '../routes/products/openapi';
import { resolverOperations } from '../routes/resolver/openapi';
import { supportOperations } from '../routes/support/openapi';
import { traceOperations } from '../routes/trace/openapi';
import { queriesOperations } from '../routes/epcis/queries-openapi';
import { recallsOperations } from '../routes/recalls/openapi';
import { webhooksOperations } from '../routes/webhooks/openapi';
import type { OperationSpec } from './operation';

/**
 * Every operation the service serves. A new route adds its `openapi.ts` (beside its `schema.ts`) here;
 * test/api/openapi.test.ts fails while a route of the router has no entry, or an entry has no route.
 */
export const operations: readonly OperationSpec[] = [
  ...healthOperations,
  ...openApiOperations,
  ...docsOperations,
  ...supportOperations,
  ...metricsOperations,
  ...accountOperations,
  ...locationsOperations,
  ...productsOperations,
  ...documentsOperations,
  ...eventsOperations,
  ...batchesOperations,
  ...ledgerOperations,
  ...jsonOperations,
  ...inventoryOperations,
  ...eventDetailsOperations,
  ...traceOperations,
  ...epcisOperations,
  ...queriesOperations,
  ...webhooksOperations,
  ...recallsOperations,
  ...resolverOperations,
  ...importsOperations,
];
