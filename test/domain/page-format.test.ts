import { UNIT_CODES } from '../../domain/units';
import { plural, quantity, UNIT_CODES as SHOWN_CODES } from '../../web/format';
import { verdictText, type Effectiveness } from '../../web/recall-figures';

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

  it('says what a recall that reached no other account waits for, not "0 acknowledged: met"', () => {
    const e: Effectiveness = {
      consignees: 0,
      reached: 0,
      acknowledged: 0,
      acted: 0,
      overdue: 0,
      checkPercent: 100,
      required: 0,
      levelMet: true,
      quantities: [],
    };
    expect(verdictText(e)).toBe('it reached no other account: no answer to wait for');
    expect(verdictText({ ...e, consignees: 3, required: 3, acknowledged: 2, levelMet: false })).toBe(
      '2 acknowledged: not met',
    );
  });
});
