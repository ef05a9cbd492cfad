import { UNIT_CODES } from '../../domain/units';
import { plural, quantity, UNIT_CODES as SHOWN_CODES } from '../../web/format';

describe('how the pages write quantities and counts (web/format.ts)', () => {
  it('has a readable name for every unit code the service stores', () => {
    expect([...SHOWN_CODES].sort()).toEqual([...UNIT_CODES].sort());
  });

  it.each([
    [100, 'KGM', '100 kg'],
    [1, 'CS', '1 case'],
    [12, 'CS', '12 cases'],
    [2.5, 'LBR', '2.5 lb'],
    [1500, 'GRM', '1,500 g'],
    [3, 'BX', '3 boxes'],
    [1, 'EA', '1 unit'],
    [7, 'XYZ', '7 XYZ'],
  ])('%d %s reads %s', (value, code, text) => {
    expect(quantity(value, code)).toBe(text);
  });

  it('writes one of a thing in the singular', () => {
    expect([plural(1, 'event'), plural(0, 'event'), plural(2, 'account')]).toEqual([
      '1 event',
      '0 events',
      '2 accounts',
    ]);
    expect(plural(1, 'delivery', 'deliveries')).toBe('1 delivery');
    expect(plural(3, 'delivery', 'deliveries')).toBe('3 deliveries');
  });
});
