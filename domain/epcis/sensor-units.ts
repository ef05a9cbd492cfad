/**
 * The units a sensor report's numbers are compared across: a query's `GT_maxValue_FAH=40` finds a report
 * in CEL or KEL as well. Each unit of a kind is a linear function of the kind's base unit
 * (base = value × factor + offset), so a bound converts exactly enough and keeps its direction.
 */
const KINDS: Record<string, Record<string, { factor: number; offset: number }>> = {
  temperature: {
    KEL: { factor: 1, offset: 0 },
    CEL: { factor: 1, offset: 273.15 },
    FAH: { factor: 5 / 9, offset: (459.67 * 5) / 9 },
  },
};

/** A number in a unit: what a report's number is compared with. */
export interface UnitBound {
  uom: string;
  value: number;
}

/**
 * `value` in `uom`, and the same in every unit of its kind: a level (a temperature), or a difference of two
 * (a standard deviation), which converts by the factors alone. A unit of no known kind is as it is named.
 */
export function boundsInEveryUnit(uom: string, value: number, measures: 'level' | 'difference'): UnitBound[] {
  const kind = Object.values(KINDS).find((units) => uom in units);
  if (!kind) return [{ uom, value }];
  const offsetOf = (unit: { offset: number }) => (measures === 'difference' ? 0 : unit.offset);
  const base = value * kind[uom].factor + offsetOf(kind[uom]);
  return Object.entries(kind).map(([to, unit]) => ({
    uom: to,
    // Rounded to 9 decimals: 78.8 °F is 26 °C, not 26.00000000000003, so that EQ_value finds it.
    value: to === uom ? value : Number(((base - offsetOf(unit)) / unit.factor).toFixed(9)),
  }));
}
