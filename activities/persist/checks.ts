import type { EventPayload, NormalisedEvent } from '../../domain/events';
import type { TimelinePoint } from '../../domain/inventory-timeline';
import type { BatchError } from '../../domain/batch-errors';
import { checkInventory } from './check-inventory';
import { checkDuplicates } from './duplicates';
import { normaliseEvents } from './normalise';
import { resolveLocations } from './resolve-locations';
import { resolveProducts } from './resolve-products';
import type { LocationVessels, ResolvedLocations, ResolvedProducts } from './resolved';
import type { CheckStep } from './step';

/** What the checks found: the events they read and the rows they resolved (or created), and every error. */
export interface CheckedEvents {
  events: NormalisedEvent[];
  products: ResolvedProducts;
  locations: ResolvedLocations;
  vessels: LocationVessels;
  /** The stored records of every timeline the events touch, read under their locks: what new balances start from. */
  stored: Map<string, TimelinePoint[]>;
  errors: BatchError[];
}

/**
 * Every check of a batch, all run before anything is refused, so a refusal lists every event's every
 * problem: times, duplicate ids, unknown (or conflicting) products and locations, which the checks
 * create from their Details in `step`'s transaction, and inventory. The events at `skip` are not checked.
 * persistEvents runs them before storing a batch; the API runs them on the events its schema accepted
 * when it refuses others, in a transaction it rolls back (batches/border-check.ts).
 */
export async function checkEvents(
  step: CheckStep,
  payloads: readonly EventPayload[],
  skip?: ReadonlySet<number>,
): Promise<CheckedEvents> {
  const { events, errors: invalid } = normaliseEvents(payloads, skip);
  const duplicates = await checkDuplicates(step, events);
  const { products, errors: productErrors } = await resolveProducts(step, events);
  const { locations, vessels, errors: locationErrors } = await resolveLocations(step, events);
  const { errors: shortfalls, stored } = await checkInventory(step, events, products, locations);
  const errors = [...invalid, ...duplicates, ...productErrors, ...locationErrors, ...shortfalls];
  return { events, products, locations, vessels, stored, errors };
}
