import type { EventPayload } from '../../domain/events';
import { checkInventory } from './check-inventory';
import { checkDuplicates } from './duplicates';
import { normaliseEvents } from './normalise';
import { resolveLocations } from './resolve-locations';
import { resolveProducts } from './resolve-products';
import type { CheckStep } from './step';

/**
 * Every check of a batch, all run before anything is refused, so a refusal lists every event's every
 * problem: times, duplicate ids, unknown (or conflicting) products and locations, which the checks
 * create from their Details in `step`'s transaction, and inventory. The events at `skip` are not checked.
 * persistEvents runs them before storing a batch; the API runs them on the events its schema accepted
 * when it refuses others, in a transaction it rolls back (batches/border-check.ts). Found: the events read,
 * the rows resolved (or created), the stored records of every timeline the events touch, read under their
 * locks (what new balances start from), and every error.
 */
export async function checkEvents(step: CheckStep, payloads: readonly EventPayload[], skip?: ReadonlySet<number>) {
  const { events, errors: invalid } = normaliseEvents(payloads, skip);
  const duplicates = await checkDuplicates(step, events);
  const { products, errors: productErrors } = await resolveProducts(step, events);
  const { locations, vessels, errors: locationErrors } = await resolveLocations(step, events);
  const { errors: shortfalls, stored } = await checkInventory(step, events, products, locations);
  const errors = [...invalid, ...duplicates, ...productErrors, ...locationErrors, ...shortfalls];
  return { events, products, locations, vessels, stored, errors };
}
