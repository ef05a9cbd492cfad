import { canonicalDecimal } from '../../domain/decimal';
import type { LocationRefPayload, NormalisedEvent, NormalisedLine } from '../../domain/events';
import type { GdstVessel } from '../../domain/gdst';
import { locationIdOf } from '../../domain/master-data';

/** A product row as the checks need it. */
export interface ResolvedProduct {
  id: string;
  /** Serial products count one per instance. */
  serial: boolean;
}

/** The batch's products by external id (Product.Id). */
export type ResolvedProducts = ReadonlyMap<string, ResolvedProduct>;
/** The batch's location row ids by external id (Location.Id). */
export type ResolvedLocations = ReadonlyMap<string, string>;
/** The stored vessel of each of the batch's locations that is one, by location row id. */
export type LocationVessels = ReadonlyMap<string, GdstVessel>;

/** The row id of the location a reference names, if it was resolved. */
export const locationRowOf = (locations: ResolvedLocations, ref: LocationRefPayload): string | undefined =>
  locations.get(locationIdOf(ref) ?? '');

/** What a line counts, as a canonical decimal: 1 per instance of a Serial product, else its Quantity. */
export const lineQuantity = (product: ResolvedProduct, line: NormalisedLine): string =>
  product.serial ? '1' : canonicalDecimal(line.quantity);

/** An event whose every product and location is a row: what is stored of a checked batch. */
export interface ResolvedEvent {
  event: NormalisedEvent;
  locationId: string;
  sourceLocationId: string | null;
  destinationLocationId: string | null;
  lines: { line: NormalisedLine; product: ResolvedProduct }[];
}

function resolvedEvent(
  event: NormalisedEvent,
  products: ResolvedProducts,
  locations: ResolvedLocations,
): ResolvedEvent | null {
  const optional = (ref: LocationRefPayload | null) => (ref ? locationRowOf(locations, ref) : null);
  const locationId = locationRowOf(locations, event.location);
  const sourceLocationId = optional(event.sourceLocation);
  const destinationLocationId = optional(event.destinationLocation);
  if (locationId === undefined || sourceLocationId === undefined || destinationLocationId === undefined) return null;
  const lines: ResolvedEvent['lines'] = [];
  for (const line of event.lines) {
    const product = products.get(line.product.Id);
    if (!product) return null;
    lines.push({ line, product });
  }
  return { event, locationId, sourceLocationId, destinationLocationId, lines };
}

/**
 * The events of a batch the checks passed, with their rows. A check reports every product or location it
 * could not resolve, so here each one is: one missing is a defect of the checks, and stops the step
 * rather than storing an event without it.
 */
export function resolvedEvents(
  events: readonly NormalisedEvent[],
  products: ResolvedProducts,
  locations: ResolvedLocations,
): ResolvedEvent[] {
  return events.map((event) => {
    const resolved = resolvedEvent(event, products, locations);
    if (!resolved)
      throw new Error(
        `Event ${event.index} (${event.externalId}) passed the checks with a product or location that was not resolved.`,
      );
    return resolved;
  });
}
