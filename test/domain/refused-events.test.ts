import type { BatchError } from '../../domain/batch-errors';
import { withUncheckedDependents } from '../../domain/refused-events';

const error = (
  index: number,
  code: BatchError['code'],
  field: string,
  extra: Partial<BatchError> = {},
): BatchError => ({
  index,
  eventId: `E${index}`,
  code,
  field,
  message: `${code} at ${field}.`,
  ...extra,
});

describe('withUncheckedDependents', () => {
  const events = [
    { Id: 'E0', Location: { Id: 'PLANT' }, ProductInstances: [{ LotSerial: 'LOT-A', Product: { Id: 'COD' } }] },
    { Id: 'E1', ProductInstances: [{ LotSerial: 'LOT-A', Product: { Id: 'COD' } }] },
    { Id: 'E2', Location: { Id: 'PLANT' } },
    { Id: 'E3', ProductInstances: [{ LotSerial: 'LOT-B', Product: { Id: 'HAKE' } }] },
  ];
  const refused = [error(0, 'UnknownField', 'Typo'), error(0, 'Required', 'EventTime')];

  it('leaves out what the refused event could explain, and says on its first error which events were not checked', () => {
    const checked = [
      error(1, 'UnknownProduct', 'ProductInstances[0].Product.Id'),
      error(1, 'InsufficientInventory', 'ProductInstances[0].Quantity', { lotSerial: 'LOT-A' }),
      error(2, 'UnknownLocation', 'Location.Id'),
      error(3, 'UnknownProduct', 'ProductInstances[0].Product.Id'),
      error(3, 'InsufficientInventory', 'ProductInstances[0].Quantity', { lotSerial: 'LOT-B' }),
      error(1, 'DuplicateEventId', 'Id'),
    ];
    const listed = withUncheckedDependents(events, refused, checked);
    expect(listed.checked).toEqual([checked[3], checked[4], checked[5]]);
    expect(listed.refused.map((e) => e.message)).toEqual([
      'UnknownField at Typo. Events 1 and 2 name a product, location or lot that this event names: their checks that depend on this event were not made.',
      'Required at EventTime.',
    ]);
  });

  it('changes nothing when no check error touches a refused event', () => {
    const checked = [error(3, 'UnknownProduct', 'ProductInstances[0].Product.Id')];
    expect(withUncheckedDependents(events, refused, checked)).toEqual({ refused, checked });
  });
});
