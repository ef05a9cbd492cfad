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
