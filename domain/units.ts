/**
 * Units of measure: UN/ECE Recommendation 20 codes, stored as the code, with the aliases people send.
 * Lookup ignores case, spaces and dots ("Lbs.", "kg", "KGM" all work).
 */
import { fromScaled, SCALE, toScaled } from './decimal';
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
 * How a unit is read in its kind's base unit: base = (value + shift) × num / den, each an exact decimal,
 * so that PostgreSQL's numeric compares two quantities in different units exactly (78.8 °F is 26 °C).
 */
export interface UnitScale {
  shift: string;
  num: string;
  den: string;
}
const times = (num: string): UnitScale => ({ shift: '0', num, den: '1' });

/** The units a number is compared across: `GT_maxValue_FAH=40` finds a report in CEL, `GE_quantity_LBR=100` 50 KGM. */
const KINDS: Record<string, Record<string, UnitScale>> = {
  temperature: {
    KEL: times('1'),
    CEL: { shift: '273.15', num: '1', den: '1' },
    FAH: { shift: '459.67', num: '5', den: '9' },
  },
  mass: {
    KGM: times('1'),
    GRM: times('0.001'),
    MGM: times('0.000001'),
    TNE: times('1000'),
    LBR: times('0.45359237'),
    ONZ: times('0.028349523125'),
    STN: times('907.18474'),
  },
  volume: { LTR: times('1'), MLT: times('0.001'), MTQ: times('1000'), GLL: times('3.785411784') },
  count: { H87: times('1'), EA: times('1') },
};

/** A unit as stored data may spell it (its code, or an alias in capitals: `KG`, `LBS`), and its scale. */
export interface UnitSpelling {
  uom: string;
  scale: UnitScale;
}

/**
 * The units `code` compares with: every unit of its kind, each in every spelling, with its scale; a
 * unit of no known kind only with itself. A difference (a standard deviation) has no shift.
 */
export function unitsComparedWith(code: string, measures: 'level' | 'difference'): UnitSpelling[] {
  const kind = Object.values(KINDS).find((units) => code in units) ?? { [code]: times('1') };
  return Object.entries(kind).flatMap(([unit, scale]) =>
    [unit, ...(UNITS[unit] ?? [])].map((spelling) => ({
      uom: spelling.toUpperCase(),
      scale: measures === 'difference' ? { ...scale, shift: '0' } : scale,
    })),
  );
}

/** The scale `code` is read in (of itself when it is of no known kind). */
export function scaleOf(code: string, measures: 'level' | 'difference'): UnitScale {
  return unitsComparedWith(code, measures).find((unit) => unit.uom === code)!.scale;
}

/**
 * `quantity` in unit `from` read in unit `to` (Rec 20 codes), rounded to SCALE decimal places (22 LBR is
 * 9.97903214 KGM); undefined when the two measure different things (a case and a kilogram).
 */
export function convertQuantity(quantity: number, from: string, to: string): number | undefined {
  if (from === to) return quantity;
  const units = Object.entries(KINDS).find(([kind, of]) => kind !== 'temperature' && from in of && to in of)?.[1];
  if (!units) return undefined;
  const [fromScale, toScale] = [toScaled(units[from].num), toScaled(units[to].num)];
  const twice = 2n * toScaled(quantity) * fromScale;
  return Number(fromScaled((twice + toScale) / (2n * toScale)));
}

/**
 * `quantity` in unit `from` as a quantity of its product's unit `to` the service keeps (at most `max`, and
 * not rounded to 0); undefined when the two measure different things.
 */
export function inProductUnit(
  quantity: number,
  from: string,
  to: string,
  max: number,
): { quantity: number } | { problem: string } | undefined {
  const converted = convertQuantity(quantity, from, to);
  if (converted === undefined) return undefined;
  if (converted > max)
    return { problem: `${quantity} ${from} is ${converted} ${to}, the product's unit: a quantity is at most ${max}.` };
  if (quantity > 0 && converted === 0)
    return { problem: `${quantity} ${from} is less of ${to}, the product's unit, than ${SCALE} decimal places hold.` };
  return { quantity: converted };
}
