import { fromScaled, toScaled } from '../../domain/decimal';
import { computeTimeline, Timeline } from '../../domain/inventory-timeline';

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

describe('decimal', () => {
  it.each([
    [12.5, '12.5'],
    ['0012.500', '12.5'],
    [1e-7, '0.0000001'],
    [-3, '-3'],
    [0, '0'],
  ])('%p → %s', (input, expected) => expect(fromScaled(toScaled(input))).toBe(expected));
});
