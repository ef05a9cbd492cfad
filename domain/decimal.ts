/**
 * Exact quantities: decimals as BigInt scaled by 10^SCALE. JavaScript numbers would drift when summing
 * (0.1 + 0.2), and inventory checks compare sums; PostgreSQL's NUMERIC holds the stored values exactly.
 */
export const SCALE = 12;
const FACTOR = 10n ** BigInt(SCALE);

/** Parses a decimal given as a JSON number or a numeric string ("12.5", "1e-3", "-4"). */
export function toScaled(value: number | string): bigint {
  let text = typeof value === 'number' ? String(value) : value.trim();
  if (/e/i.test(text)) text = Number(text).toFixed(SCALE + 2);
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && !match[3])) throw new Error(`not a decimal: ${String(value)}`);
  const [, sign, whole, fraction = ''] = match;
  // Digits beyond SCALE are dropped: quantities that small are below any unit of measure.
  const scaled = BigInt(whole || '0') * FACTOR + BigInt((fraction + '0'.repeat(SCALE)).slice(0, SCALE));
  return sign === '-' ? -scaled : scaled;
}

/** The shortest decimal string of a scaled value ("12.5", "-3", "0"). */
export function fromScaled(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / FACTOR;
  const fraction = (abs % FACTOR).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Normalises a decimal's text ("12.50" → "12.5"), for storing and comparing. */
export const canonicalDecimal = (value: number | string): string => fromScaled(toScaled(value));

/** Why a quantity cannot be kept exactly (digits past SCALE decimal places), or undefined when it can. */
export function quantityRefused(value: number): string | undefined {
  // Past 1e21 a number's text is in exponent form, which toScaled reads only as far as toFixed can write it.
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21 || Number(fromScaled(toScaled(value))) === value)
    return undefined;
  return `Quantity ${value} has digits past ${SCALE} decimal places, which are not kept: round it to at most ${SCALE}.`;
}
