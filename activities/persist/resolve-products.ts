import { consumes, inCreationOrder } from '../../domain/event-batch';
import type { NormalisedEvent, NormalisedLine } from '../../domain/events';
import { UnknownUnitError, type ProductPayload } from '../../domain/master-data';
import { findOrCreateProduct, MasterDataConflict } from '../../db/repositories/master-data';
import { productsByExternalId } from '../../db/queries/master-data-rows';
import type { BatchError } from '../../domain/batch-errors';
import type { ResolvedProduct } from './resolved';
import { eventError, type CheckStep } from './step';

/**
 * Products named by the batch: existing ones in one query, new ones created from the Details of the
 * first line (in batch order) that carries them. Each event that names a product neither found nor
 * created says so, once per product.
 */
export async function resolveProducts(step: CheckStep, events: readonly NormalisedEvent[]) {
  const errors: BatchError[] = [];
  const ids = [...new Set(events.flatMap((e) => e.lines.map((l) => l.product.Id)))];
  const rows = await productsByExternalId(step.query, step.account.id, ids);
  const products = new Map<string, ResolvedProduct>(
    rows.map((row) => [row.externalId, { id: row.id, serial: row.serial }]),
  );

  const creators = new Map<string, { event: NormalisedEvent; line: NormalisedLine; payload: ProductPayload }>();
  for (const event of events) {
    for (const line of event.lines) {
      const { Id: id, Details } = line.product;
      if (!products.has(id) && !creators.has(id) && Details)
        creators.set(id, { event, line, payload: { ...line.product, Details } });
    }
  }
  if (creators.size) await step.beforeWrite();
  const failed = new Set<string>();
  for (const [id, { event, line, payload }] of inCreationOrder(creators)) {
    const field = `${line.field}.Product`;
    try {
      const { row } = await findOrCreateProduct(step.account, payload, step.urnDomain, step.transaction);
      products.set(id, { id: row.id, serial: row.identifierType === 'Serial' });
    } catch (error) {
      failed.add(id);
      if (error instanceof UnknownUnitError) {
        errors.push(eventError(event, 'InvalidValue', `${field}.Details.SimpleUnitOfMeasurement`, error.message));
      } else if (error instanceof MasterDataConflict) {
        errors.push(eventError(event, 'InvalidValue', `${field}.${error.field}`, error.message));
      } else throw error;
    }
  }

  for (const event of events) {
    const named = new Set<string>();
    for (const line of event.lines) {
      const id = line.product.Id;
      if (products.has(id) || failed.has(id) || named.has(id)) continue;
      named.add(id);
      const unchecked = consumes(event, (l) => l.product.Id === id) ? '; its inventory was not checked' : '';
      errors.push(
        eventError(
          event,
          'UnknownProduct',
          `${line.field}.Product.Id`,
          `Product ${id} does not exist in this account and the event carries no Product.Details to create it${unchecked}.`,
        ),
      );
    }
  }
  return { products, errors };
}
