import { convertQuantity, scaleOf, unitsComparedWith } from '../../domain/units';

/** A number in a unit as PostgreSQL's numeric reads it in its kind's base unit, here with exact fractions. */
const inBase = (value: number, code: string, measures: 'level' | 'difference' = 'level') => {
  const { shift, num, den } = scaleOf(code, measures);
  return ((value + Number(shift)) * Number(num)) / Number(den);
};

describe('units a quantity or a sensor value is compared across', () => {
  it('compares a unit with every unit of its kind, in every spelling stored data may use', () => {
    const mass = unitsComparedWith('LBR', 'level').map((u) => u.uom);
    expect(mass).toEqual(
      expect.arrayContaining(['KGM', 'KG', 'GRM', 'G', 'MGM', 'TNE', 'LBR', 'LBS', 'ONZ', 'OZ', 'STN']),
    );
    expect(mass).not.toContain('LTR');
    expect(unitsComparedWith('EA', 'level').map((u) => u.uom)).toEqual(expect.arrayContaining(['H87', 'EACH', 'EA']));
    // A unit of no known kind compares with itself alone.
    expect(unitsComparedWith('A93', 'level')).toEqual([{ uom: 'A93', scale: { shift: '0', num: '1', den: '1' } }]);
  });

  it('reads each unit in its base unit by the definitions: a pound, an ounce, a short ton, a US gallon, °F', () => {
    expect(inBase(1, 'LBR')).toBeCloseTo(0.45359237, 12);
    expect(inBase(16, 'ONZ')).toBeCloseTo(inBase(1, 'LBR'), 12);
    expect(inBase(1, 'STN')).toBeCloseTo(inBase(2000, 'LBR'), 9);
    expect(inBase(1, 'TNE')).toBe(inBase(1000000, 'GRM'));
    expect(inBase(1, 'GLL')).toBeCloseTo(3.785411784, 12);
    expect(inBase(1000, 'MLT')).toBe(inBase(1, 'LTR'));
    expect(inBase(212, 'FAH')).toBeCloseTo(inBase(100, 'CEL'), 9);
    expect(inBase(0, 'CEL')).toBeCloseTo(inBase(273.15, 'KEL'), 9);
    // A spread of 1.8 °F is one of 1 °C: no shift.
    expect(inBase(1.8, 'FAH', 'difference')).toBeCloseTo(inBase(1, 'CEL', 'difference'), 12);
  });

  it('converts a quantity between units of one kind exactly, to 12 decimal places, and not across kinds', () => {
    expect(convertQuantity(22, 'LBR', 'KGM')).toBe(9.97903214);
    expect(convertQuantity(500, 'GRM', 'KGM')).toBe(0.5);
    expect(convertQuantity(1, 'LBR', 'ONZ')).toBe(16);
    expect(convertQuantity(2, 'GLL', 'LTR')).toBe(7.570823568);
    expect(convertQuantity(1, 'KGM', 'LBR')).toBe(2.204622621849);
    expect(convertQuantity(3, 'EA', 'H87')).toBe(3);
    expect(convertQuantity(2.5, 'CS', 'CS')).toBe(2.5);
    expect(convertQuantity(2, 'CS', 'KGM')).toBeUndefined();
    expect(convertQuantity(1, 'LTR', 'KGM')).toBeUndefined();
    expect(convertQuantity(1, 'CEL', 'KEL')).toBeUndefined();
  });
});
