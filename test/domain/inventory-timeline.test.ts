import { fromScaled, toScaled } from '../../domain/decimal';
import { computeTimeline, extendTimeline, Timeline } from '../../domain/inventory-timeline';

const q = (value: number | string) => toScaled(value);
const show = (points: { balance: bigint; available: bigint }[]) =>
  points.map((p) => [fromScaled(p.balance), fromScaled(p.available)]);

describe('inventory timeline (DESIGN.md)', () => {
  it('the worked example: +100 at t1, +100 at t3, a later-arriving ship of 50 at t2 leaves 50, 50, 150', () => {
    const points = computeTimeline([
      { time: 1, seq: 1n, delta: q(100) },
      { time: 3, seq: 2n, delta: q(100) },
      { time: 2, seq: 3n, delta: q(-50) },
    ]);
    expect(show(points)).toEqual([
      ['100', '50'],
      ['50', '50'],
      ['150', '150'],
    ]);
  });

  it('orders records at the same time by arrival', () => {
    const points = computeTimeline([
      { time: 5, seq: 2n, delta: q(-10) },
      { time: 5, seq: 1n, delta: q(10) },
    ]);
    expect(points.map((p) => p.seq)).toEqual([1n, 2n]);
    expect(show(points)).toEqual([
      ['10', '0'],
      ['0', '0'],
    ]);
  });

  it('rule 1: the applicable record is the latest at or before T; none means 0 available', () => {
    const timeline = new Timeline([{ time: 10, seq: 1n, delta: q(100) }]);
    expect(timeline.availableAt(9)).toBe(0n);
    expect(timeline.availableAt(10)).toBe(q(100));
    expect(timeline.availableAt(11)).toBe(q(100));
  });

  it('rule 3: an earlier consumption may use only what later consumptions leave', () => {
    const timeline = new Timeline([
      { time: 1, seq: 1n, delta: q(100) },
      { time: 10, seq: 2n, delta: q(-80) },
    ]);
    expect(timeline.consume(5, q(30))).toEqual({ accepted: false, available: q(20) });
    expect(timeline.consume(5, q(20))).toEqual({ accepted: true, available: q(20) });
    expect(timeline.availableAt(20)).toBe(0n);
  });

  it('lines of one batch consume from each other in order', () => {
    const timeline = new Timeline();
    timeline.add(1, q(10));
    expect(timeline.consume(2, q(6)).accepted).toBe(true);
    expect(timeline.consume(3, q(6))).toEqual({ accepted: false, available: q(4) });
  });

  it('availableAt agrees with computeTimeline on random timelines', () => {
    let seed = 11;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let round = 0; round < 200; round++) {
      const records = Array.from({ length: Math.floor(random() * 12) }, (_, i) => ({
        time: Math.floor(random() * 10),
        seq: BigInt(i + 1),
        delta: BigInt(Math.floor(random() * 200) - 80),
      }));
      const at = Math.floor(random() * 12) - 1;
      const points = computeTimeline(records);
      const applicable = points.filter((p) => p.time <= at).pop();
      const expected = applicable ? points[points.indexOf(applicable)].available : 0n;
      expect(new Timeline(records).availableAt(at)).toBe(expected);
    }
  });

  it('sums decimals exactly', () => {
    const timeline = new Timeline();
    timeline.add(1, q(0.1));
    timeline.add(2, q(0.2));
    expect(timeline.consume(3, q(0.3))).toEqual({ accepted: true, available: q('0.3') });
    expect(fromScaled(timeline.availableAt(3))).toBe('0');
  });
});

describe('a timeline extended by a batch (extendTimeline)', () => {
  /** A stored timeline: its records with the values they were stored with, as computed. */
  const stored = (...deltas: [time: number, delta: number][]) =>
    computeTimeline(deltas.map(([time, delta], i) => ({ time, seq: BigInt(i + 1), delta: q(delta) })));
  const added = (...deltas: [time: number, seq: number, delta: number][]) =>
    deltas.map(([time, seq, delta]) => ({ time, seq: BigInt(seq), delta: q(delta) }));

  it('is final for a new lot, and for additions after the last record that lower nothing before them', () => {
    expect(extendTimeline([], added([1, 10, 10], [2, 11, -3], [2, 12, 5])).final).toBe(true);
    const timeline = extendTimeline(stored([1, 10], [2, -3]), added([3, 10, 5]));
    expect(timeline.final).toBe(true);
    expect(show(timeline.added)).toEqual([['12', '12']]);
  });

  it('is not final when the batch changes a stored record: a later ship lowers what it can give, an earlier record its balance', () => {
    expect(extendTimeline(stored([1, 10]), added([2, 10, -3])).final).toBe(false);
    expect(extendTimeline(stored([2, 10]), added([1, 10, 5])).final).toBe(false);
  });

  it('takes the lines of one event at one time in their order, as the recalculation does: 100, then 60 out and 3 in', () => {
    const timeline = extendTimeline([], added([1, 9, 100], [2, 10, -60], [2, 10, 3]));
    expect(timeline.final).toBe(true);
    expect(show(timeline.added)).toEqual([
      ['100', '40'],
      ['40', '40'],
      ['43', '43'],
    ]);
  });

  it('is not final when a stored record holds values a recalculation would change (its batch not recalculated yet)', () => {
    const stale = stored([1, 10], [2, -3]).map((point, i) => (i === 0 ? { ...point, available: q(10) } : point));
    expect(extendTimeline(stale, added([3, 10, 1])).final).toBe(false);
  });

  it('answers the added records with their balance and available among the stored ones', () => {
    // Stored: +10 at t1, -2 at t4. Added: +5 at t2, -4 at t3: balances 10, 15, 11, 9.
    const timeline = extendTimeline(stored([1, 10], [4, -2]), added([2, 10, 5], [3, 11, -4]));
    expect(show(timeline.added)).toEqual([
      ['15', '9'],
      ['11', '9'],
    ]);
    expect(timeline.final).toBe(false);
  });
});

describe('decimal', () => {
  it.each([
    [12.5, '12.5'],
    ['0012.500', '12.5'],
    [1e-7, '0.0000001'],
    [-3, '-3'],
    [0, '0'],
  ])('%p → %s', (input, expected) => expect(fromScaled(toScaled(input))).toBe(expected));
});
