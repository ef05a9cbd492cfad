import { fromScaled, toScaled } from '../../domain/decimal';
import type { EventPayload } from '../../domain/events';
import { eventIdOf } from '../../domain/hashing';
import { eventUrn } from '../../domain/urn';
import {
  insertEventLines,
  insertEvents,
  insertInventoryRecords,
  type NewEventLineRow,
  type NewInventoryRecordRow,
} from '../../db/repositories/batch-events';
import { extendTimeline, type TimelinePoint } from '../../domain/inventory-timeline';
import { timelineKey } from '../../db/sql';

type NewRecord = Omit<NewInventoryRecordRow, 'balance' | 'available'>;
import { lineQuantity, type ResolvedEvent } from './resolved';
import type { PersistStep } from './step';

/**
 * Stores the checked batch: its events (each with its payload as sent), their lines, and an inventory
 * record for each line that moves inventory at the event's location. Event ids are derived from the
 * batch id and position (eventIdOf), so a retry can never store an event twice. Answers whether the
 * recalculation has anything left to write (withBalances).
 */
export async function insertBatch(
  step: PersistStep,
  payloads: readonly EventPayload[],
  events: readonly ResolvedEvent[],
  /** The touched timelines' stored records by timeline key (checkInventory read them under their locks). */
  timelines: ReadonlyMap<string, readonly TimelinePoint[]>,
): Promise<{ recalculate: boolean }> {
  const { query, account, batchId } = step;
  const stored = events.map((resolved) => ({ ...resolved, id: eventIdOf(batchId, resolved.event.index) }));
  const seqs = await insertEvents(
    query,
    account.id,
    batchId,
    stored.map(({ id, event, locationId, sourceLocationId, destinationLocationId }) => ({
      id,
      externalId: event.externalId,
      type: event.type,
      eventTime: event.eventTime,
      eventTimeZone: event.eventTimeZone,
      locationId,
      sourceLocationId,
      destinationLocationId,
      purchaseOrder: event.purchaseOrder,
      invoiceNumber: event.invoiceNumber,
      referenceDocumentId: event.referenceDocumentId,
      urn: eventUrn(id),
      payload: payloads[event.index],
    })),
  );

  const lines = stored.flatMap((event) =>
    event.lines.map(({ line, product }) => {
      const quantity = lineQuantity(product, line);
      const row: NewEventLineRow = {
        eventId: event.id,
        position: line.position,
        role: line.role,
        productId: product.id,
        lotSerial: line.lotSerial,
        quantity,
      };
      // Signed change at the event's location; null for lines that move no inventory.
      const delta = line.sign === 0 ? null : line.sign > 0 ? quantity : fromScaled(-toScaled(quantity));
      return { event, row, delta };
    }),
  );
  const lineIds = await insertEventLines(
    query,
    account.id,
    lines.map((l) => l.row),
  );

  const seqOf = (eventId: string): string => {
    const seq = seqs.get(eventId);
    if (seq === undefined) throw new Error(`Event ${eventId} was inserted but not returned.`);
    return seq;
  };
  const records = lines.flatMap(({ event, row, delta }, i) =>
    delta === null
      ? []
      : [
          {
            productId: row.productId,
            lotSerial: row.lotSerial,
            locationId: event.locationId,
            eventId: event.id,
            eventLineId: lineIds[i],
            eventTime: event.event.eventTime,
            eventSeq: seqOf(event.id),
            delta,
          },
        ],
  );
  const { rows, final } = withBalances(account.id, records, timelines);
  await insertInventoryRecords(query, account.id, rows);
  return { recalculate: !final };
}

/**
 * Each new record's balance and available, computed as recalculateTimeline computes them, from its
 * timeline's stored records (read under the timeline's lock, which this transaction holds) and the
 * batch's, and whether they are final for every timeline (extendTimeline): then the recalculation would
 * write nothing, and is not run. Otherwise it rewrites the older records the batch changed.
 */
function withBalances(
  accountId: string,
  records: readonly NewRecord[],
  stored: ReadonlyMap<string, readonly TimelinePoint[]>,
): { rows: NewInventoryRecordRow[]; final: boolean } {
  const byTimeline = new Map<string, { record: NewRecord; index: number }[]>();
  records.forEach((record, index) => {
    const key = timelineKey(accountId, record.productId, record.lotSerial, record.locationId);
    let list = byTimeline.get(key);
    if (!list) byTimeline.set(key, (list = []));
    list.push({ record, index });
  });
  const rows: NewInventoryRecordRow[] = new Array<NewInventoryRecordRow>(records.length);
  let final = true;
  for (const [key, added] of byTimeline) {
    const timeline = extendTimeline(
      stored.get(key) ?? [],
      added.map(({ record, index }) => ({
        time: Date.parse(record.eventTime),
        seq: BigInt(record.eventSeq),
        delta: toScaled(record.delta),
        index,
      })),
    );
    final &&= timeline.final;
    for (const point of timeline.added)
      rows[point.index] = {
        ...records[point.index],
        balance: fromScaled(point.balance),
        available: fromScaled(point.available),
      };
  }
  return { rows, final };
}
