/**
 * Units of measure: UN/ECE Recommendation 20 codes, stored as the code, with the aliases people send.
 * Lookup ignores case, spaces and dots ("Lbs.", "kg", "KGM" all work).
 */
const UNITS: Record<string, readonly string[]> = {
  KGM: ['kg', 'kgs', 'kilo', 'kilos', 'kilogram', 'kilograms', 'kilogramme', 'kilogrammes'],
  GRM: ['g', 'gr', 'gram', 'grams', 'gramme', 'grammes'],
  MGM: ['mg', 'milligram', 'milligrams'],
  TNE: ['t', 'tonne', 'tonnes', 'metricton', 'metrictons', 'mt'],
  LBR: ['lb', 'lbs', 'pound', 'pounds'],
  ONZ: ['oz', 'ounce', 'ounces'],
  STN: ['shortton', 'shorttons', 'uston', 'ustons'],
  LTR: ['l', 'lt', 'liter', 'liters', 'litre', 'litres'],
  MLT: ['ml', 'milliliter', 'milliliters', 'millilitre', 'millilitres'],
  MTQ: ['m3', 'cubicmeter', 'cubicmeters', 'cubicmetre', 'cubicmetres'],
  GLL: ['gal', 'gallon', 'gallons', 'usgallon', 'usgallons'],
  H87: ['ea', 'each', 'piece', 'pieces', 'pc', 'pcs', 'unit', 'units'],
  EA: [],
  CS: ['case', 'cases'],
  BX: ['box', 'boxes'],
  PK: ['pack', 'packs', 'package', 'packages'],
  PX: ['pallet', 'pallets'],
  DZN: ['dozen', 'doz'],
  MTR: ['m', 'meter', 'meters', 'metre', 'metres'],
};

const key = (value: string): string => value.toLowerCase().replace(/[\s.]/g, '');

const LOOKUP = new Map<string, string>();
for (const [code, aliases] of Object.entries(UNITS)) {
  LOOKUP.set(key(code), code);
  for (const alias of aliases) LOOKUP.set(key(alias), code);
}

export const UNIT_CODES: readonly string[] = Object.keys(UNITS);

/** The Rec 20 code for a code or alias, or undefined when the unit is not known. */
export function normaliseUnit(value: string): string | undefined {
  return LOOKUP.get(key(value));
}

export const unitsAcceptedMessage = (): string =>
  `Accepted units: UN/ECE Recommendation 20 codes ${UNIT_CODES.join(', ')}, and common names such as kg, lb, lbs, pound, g, oz, l, each.`;

/**
 * The units a number is compared across (a query's `GT_maxValue_FAH=40` finds a sensor report in CEL,
 * `GE_quantity_LBR=100` a quantity in KGM): each unit of a kind a linear function of the kind's base unit
 * (base = value × factor + offset), so a bound converts exactly enough and keeps its direction.
 */
const KINDS: Record<string, Record<string, { factor: number; offset: number }>> = {
  temperature: {
    KEL: { factor: 1, offset: 0 },
    CEL: { factor: 1, offset: 273.15 },
    FAH: { factor: 5 / 9, offset: (459.67 * 5) / 9 },
  },
  mass: {
    KGM: { factor: 1, offset: 0 },
    GRM: { factor: 0.001, offset: 0 },
    MGM: { factor: 0.000001, offset: 0 },
    TNE: { factor: 1000, offset: 0 },
    LBR: { factor: 0.45359237, offset: 0 },
    ONZ: { factor: 0.028349523125, offset: 0 },
    STN: { factor: 907.18474, offset: 0 },
  },
  volume: {
    LTR: { factor: 1, offset: 0 },
    MLT: { factor: 0.001, offset: 0 },
    MTQ: { factor: 1000, offset: 0 },
    GLL: { factor: 3.785411784, offset: 0 },
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
    // To 12 digits: 78.8 °F is 26 °C, not 26.00000000000003, so that EQ_value finds it.
    value: to === uom ? value : Number(((base - offsetOf(unit)) / unit.factor).toPrecision(12)),
  }));
}
