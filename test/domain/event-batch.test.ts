import { toScaled } from '../../domain/decimal';
import { coveredBy, eventIdRepeats, inBatchOrder, inCreationOrder, locationReferences } from '../../domain/event-batch';
import { normaliseEvent, type EventPayload } from '../../domain/events';
import { inventoryShortfalls, type InventoryMove } from '../../domain/inventory-check';
import { Timeline } from '../../domain/inventory-timeline';

const event = (index: number, fields: Partial<EventPayload> = {}) =>
  normaliseEvent(
    {
      $type: 'observe',
      Id: `E${index}`,
      Location: { Id: 'L1' },
      EventTime: '2024-03-01T10:00:00',
      EventTimeZone: '+00:00',
      ...fields,
    } as EventPayload,
    index,
  );

describe('a batch before it is stored', () => {
  it('reports each repeat of an event id against its first event, and checks each id once', () => {
    const events = [event(0, { Id: 'A' }), event(1, { Id: 'B' }), event(2, { Id: 'A' }), event(3, { Id: 'A' })];
    const { firsts, repeats } = eventIdRepeats(events);
    expect(firsts.map((e) => e.index)).toEqual([0, 1]);
    expect(repeats.map(({ event, first }) => [event.index, first.index])).toEqual([
      [2, 0],
      [3, 0],
    ]);
  });

  it('lists the locations events name, by field, with the id each is named by', () => {
    const refs = locationReferences([
      event(0, { SourceLocation: { Id: 'S' } }),
      event(1, { Location: {}, DestinationLocation: { id: 'D' } }),
    ]);
    expect(refs.map(({ event, field, id }) => [event.index, field, id])).toEqual([
      [0, 'Location', 'L1'],
      [0, 'SourceLocation', 'S'],
      [1, 'Location', undefined],
      [1, 'DestinationLocation', 'D'],
    ]);
  });

  it('creates new master data in the order of its ids, whatever the order of the events', () => {
    expect(
      inCreationOrder(
        new Map([
          ['b', 1],
          ['B', 2],
          ['a', 3],
        ]),
      ).map(([id]) => id),
    ).toEqual(['B', 'a', 'b']);
  });

  it('orders errors by event, keeping the order they were found in within an event, and errors of no event last', () => {
    const errors = [
      { index: null, n: 1 },
      { index: 2, n: 2 },
      { index: 0, n: 3 },
      { index: 2, n: 4 },
    ];
    expect(inBatchOrder(errors).map((e) => e.n)).toEqual([3, 2, 4, 1]);
  });

  it('leaves out what the API reported about the same part of the same event, never duplicates or inventory', () => {
    const prior = [{ index: 1, code: 'UnknownProduct', field: 'ProductInstances[0].Product.Id' }];
    expect(coveredBy(prior, { index: 1, code: 'UnknownProduct', field: 'ProductInstances[0].Product.Id' })).toBe(true);
    expect(
      coveredBy(prior, { index: 1, code: 'InvalidValue', field: 'ProductInstances[0].Product.Details.Name' }),
    ).toBe(true);
    expect(coveredBy(prior, { index: 1, code: 'UnknownLocation', field: 'Location.Id' })).toBe(false);
    expect(coveredBy(prior, { index: 2, code: 'UnknownProduct', field: 'ProductInstances[0].Product.Id' })).toBe(false);
    expect(coveredBy(prior, { index: 1, code: 'InsufficientInventory', field: 'ProductInstances[0].Quantity' })).toBe(
      false,
    );
    expect(
      coveredBy([{ index: 1, code: 'InvalidValue', field: 'Id' }], { index: 1, code: 'DuplicateEventId', field: 'Id' }),
    ).toBe(false);
  });
});

describe('the inventory check of a batch', () => {
  const move = (
    timeline: string,
    time: number,
    quantity: number,
    sign: 1 | -1,
    line: string,
    recorded = false,
  ): InventoryMove<string> => ({
    timeline,
    time,
    quantity: toScaled(quantity),
    sign,
    recorded,
    line,
  });

  it('lets lines of one batch consume what earlier lines added, and reports what no timeline can serve', () => {
    const timelines = new Map([['t', new Timeline([{ time: 1, seq: 1n, delta: toScaled(5) }])]]);
    const shortfalls = inventoryShortfalls(
      [move('t', 2, 10, 1, 'receive 10'), move('t', 3, 12, -1, 'ship 12'), move('t', 4, 10, -1, 'ship 10')],
      timelines,
    );
    expect(shortfalls).toEqual([{ line: 'ship 10', requested: toScaled(10), available: toScaled(3) }]);
  });

  it('keeps a recorded (EPCIS) consumption beyond the available quantity instead of refusing it', () => {
    const timelines = new Map([['t', new Timeline()]]);
    expect(inventoryShortfalls([move('t', 1, 4, -1, 'epcis', true), move('t', 2, 1, -1, 'ship')], timelines)).toEqual([
      { line: 'ship', requested: toScaled(1), available: toScaled(-4) },
    ]);
  });

  it('checks nothing on a timeline nothing consumes from', () => {
    expect(inventoryShortfalls([move('u', 1, 4, 1, 'receive')], new Map())).toEqual([]);
  });
});
