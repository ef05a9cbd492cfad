import { formatEventDate, linesOfEvent, normaliseEvent, parseEventTime, type EventPayload } from '../../domain/events';
import { canonicalJson, chainHash, uuidFromName } from '../../domain/hashing';
import { quantityRefused } from '../../domain/decimal';

const utc = (time: string, zone: string) => {
  const result = parseEventTime(time, zone);
  return result.ok ? result.utc.toISOString() : `${result.field}: ${result.message}`;
};

describe('event time', () => {
  it('reads a time without offset in EventTimeZone', () =>
    expect(utc('2024-03-01T10:00:00', '-05:00')).toBe('2024-03-01T15:00:00.000Z'));
  it('lets an offset in EventTime win over the zone', () =>
    expect(utc('2024-03-01T10:00:00+01:00', '-05:00')).toBe('2024-03-01T09:00:00.000Z'));
  it('accepts Z and fractions', () =>
    expect(utc('2024-03-01T10:00:00.250Z', '+00:00')).toBe('2024-03-01T10:00:00.250Z'));
  it.each([
    ['2024-02-30T10:00:00', '+00:00', /^EventTime:/],
    ['yesterday', '+00:00', /^EventTime:/],
    ['2024-03-01T10:00:00', 'EST', /^EventTimeZone:/],
    ['2024-03-01T10:00:00', '+25:00', /^EventTimeZone:/],
    ['2024-03-01T10:00:00', '', /^EventTimeZone:/],
    // Four-digit years in UTC: PostgreSQL reads no other.
    [
      '9999-12-31T23:59:59',
      '-12:00',
      /^EventTime: EventTime "9999-12-31T23:59:59" is not in the years 0001 to 9999 in UTC\.$/,
    ],
    ['0001-01-01T00:00:00+01:00', '+00:00', /^EventTime: .* is not in the years 0001 to 9999 in UTC\.$/],
  ])('rejects %s in %s', (time, zone, expected) => expect(utc(time, zone)).toMatch(expected));
  it('accepts the last instant of the year 9999 in UTC', () =>
    expect(utc('9999-12-31T23:59:59+14:00', '+00:00')).toBe('9999-12-31T09:59:59.000Z'));
  it('formats result dates with +00:00', () =>
    expect(formatEventDate(new Date('2024-03-01T15:00:00Z'))).toBe('2024-03-01T15:00:00+00:00'));
});

describe('normalisation into lines', () => {
  const p = (id: string, lot: string, quantity: number) => ({
    Quantity: quantity,
    LotSerial: lot,
    Product: { Id: id },
  });
  const base = { Id: 'E1', Location: { Id: 'L' }, EventTime: '2024-03-01T10:00:00', EventTimeZone: '+00:00' };
  const signs = (event: Partial<EventPayload>) =>
    linesOfEvent({ ...base, ...event } as EventPayload).map((l) => `${l.role}${l.sign}`);

  it.each([
    ['commission', '+'],
    ['receive', '+'],
    ['ship', '-'],
    ['decommission', '-'],
    ['observe', '0'],
  ] as const)('%s lines are instances with sign %s', (type, sign) =>
    expect(signs({ $type: type, ProductInstances: [p('A', '1', 1)] })).toEqual([
      `instance${sign === '+' ? 1 : sign === '-' ? -1 : 0}`,
    ]),
  );

  it('transform consumes inputs and adds outputs', () =>
    expect(signs({ $type: 'transform', InputProducts: [p('A', '1', 2)], OutputProducts: [p('B', '2', 1)] })).toEqual([
      'input-1',
      'output1',
    ]));

  it('aggregation names the parent and children and moves nothing', () =>
    expect(
      signs({
        $type: 'aggregation',
        ParentLotSerial: 'PAL',
        Product: { Id: 'P' },
        ChildProductInstances: [p('A', '1', 1)],
      }),
    ).toEqual(['parent0', 'child0']));

  it('normalises type, time and empty DocumentIds', () => {
    const event = normaliseEvent(
      { ...base, $type: 'ship', ProductInstances: [p('A', '1', 1)], DocumentIds: [] } as EventPayload,
      3,
    );
    expect(event).toMatchObject({ index: 3, type: 'Ship', eventTime: '2024-03-01T10:00:00.000Z', documentIds: null });
  });
});

describe('hashing', () => {
  it('canonical JSON ignores key order', () =>
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe(canonicalJson({ a: [{ c: 3, d: 2 }], b: 1 })));
  it('canonical JSON is the exact text the ledger hashes: sorted keys, undefined members left out, non-finite numbers null', () =>
    expect(canonicalJson({ Z: 1, b: [1, undefined, NaN, 'é"\\'], a: { y: undefined, x: null }, $type: 'ship' })).toBe(
      '{"$type":"ship","Z":1,"a":{"x":null},"b":[1,null,null,"é\\"\\\\"]}',
    ));
  it('chains depend on every field', () => {
    const h = chainHash('0'.repeat(64), 'ab', 1, 'e');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(chainHash('0'.repeat(64), 'ab', 2, 'e')).not.toBe(h);
  });
  it('name-based uuids are stable', () => {
    expect(uuidFromName('batch:1')).toBe(uuidFromName('batch:1'));
    expect(uuidFromName('batch:1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('quantities kept exactly', () => {
  it.each([[0.1], [12.5], [0.123456789012], [1e12], [0]])('keeps %p', (q) =>
    expect(quantityRefused(q)).toBeUndefined(),
  );
  it.each([[1e-20], [0.1234567890123], [0.3333333333333333], [1e-13]])('refuses %p, saying how to round it', (q) =>
    expect(quantityRefused(q)).toBe(
      `Quantity ${q} has digits past 12 decimal places, which are not kept: round it to at most 12.`,
    ),
  );
});
