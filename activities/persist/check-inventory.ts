import { fromScaled, toScaled } from '../../domain/decimal';
import type { NormalisedEvent, NormalisedLine } from '../../domain/events';
import { inventoryShortfalls, type InventoryMove } from '../../domain/inventory-check';
import { Timeline, type TimelinePoint } from '../../domain/inventory-timeline';
import { locationIdOf } from '../../domain/master-data';
import { lockTimelines, timelineRecords, type TimelineRef } from '../../db/repositories/inventory-timelines';
import { timelineKey } from '../../db/sql';
import { inventoryRejections } from '../../platform/metrics';
import type { BatchError } from '../../domain/batch-errors';
import { lineQuantity, type ResolvedLocations, type ResolvedProducts } from './resolved';
import { eventError, type CheckStep } from './step';

/** What a shortfall is reported with. */
interface CheckedLine {
  event: NormalisedEvent;
  line: NormalisedLine;
  /** The event's Location.Id. */
  location: string;
}

/**
 * InsufficientInventory: every consuming line against its timeline, in batch order, under the timelines'
 * locks (held until the batch commits). A line whose product or location could not be resolved is not
 * checked: its UnknownProduct/UnknownLocation error says so.
 */
export async function checkInventory(
  step: CheckStep,
  events: readonly NormalisedEvent[],
  products: ResolvedProducts,
  locations: ResolvedLocations,
): Promise<{ errors: BatchError[]; stored: Map<string, TimelinePoint[]> }> {
  const moves: InventoryMove<CheckedLine>[] = [];
  const touched = new Map<string, TimelineRef>();
  const consumed = new Map<string, TimelineRef>();
  for (const event of events) {
    const location = locationIdOf(event.location) ?? '';
    const locationId = locations.get(location);
    if (!locationId) continue;
    for (const line of event.lines) {
      const product = products.get(line.product.Id);
      if (!product || line.sign === 0) continue;
      const timeline = timelineKey(step.account.id, product.id, line.lotSerial, locationId);
      const ref = { productId: product.id, lotSerial: line.lotSerial, locationId };
      touched.set(timeline, ref);
      if (line.sign < 0) consumed.set(timeline, ref);
      const quantity = toScaled(lineQuantity(product, line));
      moves.push({
        timeline,
        time: Date.parse(event.eventTime),
        quantity,
        sign: line.sign,
        recorded: event.recorded,
        line: { event, line, location },
      });
    }
  }
  await lockTimelines(step.query, step.account.id, [...touched.values()]);

  // Only timelines that something consumes from need checking: an addition never lowers availability.
  // Every touched timeline is read, under its lock, for what the new records' balances start from (insertBatch).
  const stored = await timelineRecords(step.query, step.account.id, [...touched.values()]);
  const timelines = new Map([...consumed.keys()].map((key) => [key, new Timeline(stored.get(key) ?? [])]));
  const shortfalls = inventoryShortfalls(moves, timelines);
  const errors = shortfalls.map(({ line: { event, line, location }, requested, available }) => {
    inventoryRejections.inc({ type: event.type.toLowerCase() });
    return {
      ...eventError(
        event,
        'InsufficientInventory',
        `${line.field}.Quantity`,
        `Insufficient inventory of product ${line.product.Id}, lot ${line.lotSerial} at location ${location} at ${event.eventTime}: requested ${fromScaled(requested)}, available ${fromScaled(available)}.`,
      ),
      product: line.product.Id,
      lotSerial: line.lotSerial,
      location,
      requested: Number(fromScaled(requested)),
      available: Number(fromScaled(available)),
    };
  });
  return { errors, stored };
}
