/**
 * The inventory check of a batch (SPEC.md rules 1 and 3): its lines, in batch order, against the stored
 * timelines they move, so that lines of one batch consume from each other. Pure: no I/O.
 */
import type { Timeline } from './inventory-timeline';

/** One line's move on one timeline. `T` is what the caller needs back to report a shortfall. */
export interface InventoryMove<T> {
  /** The timeline it moves (whatever key the caller loaded the timelines by). */
  timeline: string;
  /** Epoch milliseconds of the event time. */
  time: number;
  /** Scaled (domain/decimal), positive. */
  quantity: bigint;
  sign: 1 | -1;
  /** An EPCIS event records what happened: a consumption beyond the available quantity is kept, not refused. */
  recorded: boolean;
  line: T;
}

export interface Shortfall<T> {
  line: T;
  requested: bigint;
  available: bigint;
}

/**
 * The consuming moves the timelines cannot serve. `timelines` holds the timelines something consumes
 * from; a move on another timeline only adds, and an addition never lowers availability, so it has
 * nothing to check against.
 */
export function inventoryShortfalls<T>(
  moves: readonly InventoryMove<T>[],
  timelines: ReadonlyMap<string, Timeline>,
): Shortfall<T>[] {
  const shortfalls: Shortfall<T>[] = [];
  for (const move of moves) {
    const timeline = timelines.get(move.timeline);
    if (!timeline) continue;
    if (move.sign > 0) {
      timeline.add(move.time, move.quantity);
      continue;
    }
    const { accepted, available } = timeline.consume(move.time, move.quantity);
    if (!accepted && move.recorded) timeline.add(move.time, -move.quantity);
    else if (!accepted) shortfalls.push({ line: move.line, requested: move.quantity, available });
  }
  return shortfalls;
}
