/**
 * How the pages write what the API answers for people: times in the reader's own time zone (named),
 * quantities in readable units, counts with the right plural.
 */

const TIME_PARTS = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
  numberingSystem: 'latn',
});

/** An instant in the browser's time zone, date and time apart: `{ date: '2024-07-01', time: '08:00:00 CEST' }`. */
export function localParts(iso: string): { date: string; time: string } {
  const parts = Object.fromEntries(TIME_PARTS.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}:${parts.second} ${parts.timeZoneName}`,
  };
}

/** Every time a page shows, in one format: the reader's local time to the second, with its zone. */
export function localTime(iso: string | null): string {
  if (!iso) return '-';
  const { date, time } = localParts(iso);
  return `${date} ${time}`;
}

/** A span of seconds, as roughly as people say it: `90 s`, `5 min`, `24 h`. */
export function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/** `1 event`, `2 events`; `plural(n, 'delivery', 'deliveries')` where the plural is not an added s. */
export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

/**
 * The UN/ECE Recommendation 20 codes the service stores (domain/units.ts) as people write them: a
 * symbol, or a word with its plural.
 */
const UNITS: Record<string, string | [one: string, many: string]> = {
  KGM: 'kg',
  GRM: 'g',
  MGM: 'mg',
  TNE: 't',
  LBR: 'lb',
  ONZ: 'oz',
  STN: ['short ton', 'short tons'],
  LTR: 'l',
  MLT: 'ml',
  MTQ: 'm³',
  GLL: 'gal',
  H87: ['piece', 'pieces'],
  EA: ['unit', 'units'],
  CS: ['case', 'cases'],
  BX: ['box', 'boxes'],
  PK: ['pack', 'packs'],
  PX: ['pallet', 'pallets'],
  DZN: ['dozen', 'dozen'],
  MTR: 'm',
};

export const UNIT_CODES: readonly string[] = Object.keys(UNITS);

/** A unit as a field's label gives it: `kg`, `cases`; a code the table does not know is shown as it is. */
export function unitLabel(code: string): string {
  const unit = Object.hasOwn(UNITS, code) ? UNITS[code] : code;
  return typeof unit === 'string' ? unit : unit[1];
}

/** `100 kg`, `1 case`, `12 cases`; a code the table does not know is shown as it is. */
export function quantity(value: number | null, code: string): string {
  if (value === null) return '-';
  const unit = Object.hasOwn(UNITS, code) ? UNITS[code] : code;
  const amount = value.toLocaleString('en', { maximumFractionDigits: 6 });
  if (typeof unit === 'string') return `${amount} ${unit}`;
  return `${amount} ${value === 1 ? unit[0] : unit[1]}`;
}
