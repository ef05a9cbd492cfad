/**
 * The inventory timeline of one (account, product, lot, location), DESIGN.md "Inventory timeline".
 * Pure: no I/O. Records are ordered by (time, seq), seq being arrival order. Quantities are scaled
 * BigInts (domain/decimal), so sums are exact. The recalculation SQL in db/repositories/inventory-timelines
 * computes the same two columns with window functions; test/domain checks this module, and the API tests
 * check the SQL against the same examples.
 */
export interface TimelineRecord {
  /** Epoch milliseconds of the event time. */
  time: number;
  /** Arrival order; ties on time are broken by it. */
  seq: bigint;
  delta: bigint;
}

export interface TimelinePoint extends TimelineRecord {
  /** Sum of the deltas of this and every earlier record. */
  balance: bigint;
  /** Min over this and every later record of balance: what can still be consumed at this point. */
  available: bigint;
}

export const compareRecords = (
  a: Pick<TimelineRecord, 'time' | 'seq'>,
  b: Pick<TimelineRecord, 'time' | 'seq'>,
): number => a.time - b.time || (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0);

/** balance = running sum forwards; available = running minimum of balance backwards. O(n). */
export function computeTimeline<R extends TimelineRecord>(records: readonly R[]): (R & TimelinePoint)[] {
  const sorted = [...records].sort(compareRecords);
  let balance = 0n;
  const points = sorted.map((r) => ({ ...r, balance: (balance += r.delta), available: 0n }));
  let min: bigint | undefined;
  for (let i = points.length - 1; i >= 0; i--) {
    min = min === undefined || points[i].balance < min ? points[i].balance : min;
    points[i].available = min;
  }
  return points;
}

/**
 * A timeline's stored records (each with the balance and available it was stored with) extended by
 * `added`: the added records' points, and whether they are final. They are when every stored record
 * keeps its balance and available: a recalculation would then write nothing. Records of one event at one
 * time keep their order (the sort is stable): stored ones come in line order, added ones in batch order,
 * which is the order their lines are inserted in, as the recalculation orders them (by event_line_id).
 */
export function extendTimeline<R extends TimelineRecord>(
  stored: readonly TimelinePoint[],
  added: readonly R[],
): { added: (R & TimelinePoint)[]; final: boolean } {
  const points = computeTimeline<TimelineRecord & { stored?: TimelinePoint; added?: R }>([
    ...stored.map((record) => ({ ...record, stored: record })),
    ...added.map((record) => ({ ...record, added: record })),
  ]);
  const final = points.every(
    (point) => !point.stored || (point.stored.balance === point.balance && point.stored.available === point.available),
  );
  return {
    added: points.flatMap(({ added: record, balance, available }) =>
      record ? [{ ...record, balance, available }] : [],
    ),
    final,
  };
}

/**
 * A lot's timeline being extended by the lines of a batch, in batch order, so that lines of one batch
 * consume from each other (SPEC.md rules 1 and 3).
 */
export class Timeline {
  private readonly records: TimelineRecord[];
  private nextSeq: bigint;

  constructor(records: readonly TimelineRecord[] = []) {
    this.records = [...records].sort(compareRecords);
    this.nextSeq = this.records.reduce((max, r) => (r.seq > max ? r.seq : max), 0n) + 1n;
  }

  /**
   * Available quantity for an event at `time` (SPEC.md rule 1): the available quantity of the latest
   * record at or before `time`, 0 when there is none. A record of this batch at the same time counts as
   * earlier, because it arrived earlier.
   */
  availableAt(time: number): bigint {
    // One pass, no allocation: records at or before `time` form a prefix; the minimum restarts at each
    // of them, so it ends as the minimum of balance from the last one (the applicable record) onwards.
    let balance = 0n;
    let min: bigint | undefined;
    for (const record of this.records) {
      balance += record.delta;
      if (record.time <= time) min = balance;
      else if (min === undefined) break;
      else if (balance < min) min = balance;
    }
    return min ?? 0n;
  }

  /** Adds a record; it sorts after every record at the same time (it arrived last). */
  add(time: number, delta: bigint): void {
    const record = { time, seq: this.nextSeq++, delta };
    let i = this.records.length;
    while (i > 0 && compareRecords(this.records[i - 1], record) > 0) i--;
    this.records.splice(i, 0, record);
  }

  /**
   * Consumes `quantity` at `time` if the timeline allows it (SPEC.md rule 3), and reports what was
   * available either way.
   */
  consume(time: number, quantity: bigint): { accepted: boolean; available: bigint } {
    const available = this.availableAt(time);
    if (quantity > available) return { accepted: false, available };
    this.add(time, -quantity);
    return { accepted: true, available };
  }

  points(): TimelinePoint[] {
    return computeTimeline(this.records);
  }
}
