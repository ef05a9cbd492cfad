import { accountOperations } from '../account/openapi';
import { batchesOperations } from '../batches/openapi';
import { docsOperations } from '../docs/openapi';
import { documentsOperations } from '../documents/openapi';
import { epcisOperations } from '../epcis/openapi';
import { eventDetailsOperations } from '../event-details/openapi';
import { eventsOperations } from '../events/openapi';
import { healthOperations } from '../health/openapi';
import { importsOperations } from '../imports/openapi';
import { inventoryOperations } from '../inventory/openapi';
import { jsonOperations } from '../json/openapi';
import { ledgerOperations } from '../ledger/openapi';
import { locationsOperations } from '../locations/openapi';
import { metricsOperations } from '../metrics/openapi';
import { openApiOperations } from './openapi';
import { productsOperations } from '../products/openapi';
import { resolverOperations } from '../resolver/openapi';
import { supportOperations } from '../support/openapi';
import { traceOperations } from '../trace/openapi';
import { queriesOperations } from '../epcis/queries-openapi';
import { recallsOperations } from '../recalls/openapi';
import { webhooksOperations } from '../webhooks/openapi';
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
