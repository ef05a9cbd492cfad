/**
 * The GS1 keys locations and products carry: Global Location Numbers (13 digits) and Global Trade Item
 * Numbers (8, 12, 13 or 14), the last digit a check digit (GS1 General Specifications, the mod-10
 * algorithm: weights 3 and 1 alternating from the rightmost data digit; epcis/identifiers.ts).
 */
import { checkDigit } from './epcis/identifiers';

export const gs1CheckDigit = (data: string): number => Number(checkDigit(data));

/** Why `key` is not a GS1 key `name` of one of `lengths`, or null when it is one. */
function keyProblem(key: string, name: string, lengths: readonly number[]): string | null {
  if (!/^\d+$/.test(key) || !lengths.includes(key.length)) {
    const spelt = lengths.length > 1 ? `${lengths.slice(0, -1).join(', ')} or ${lengths.at(-1)}` : `${lengths[0]}`;
    return `${key} is not a ${name}: a ${name} is ${spelt} digits.`;
  }
  const data = key.slice(0, -1);
  const expected = gs1CheckDigit(data);
  if (Number(key.at(-1)) !== expected)
    return `${key} is not a ${name}: its check digit is ${key.at(-1)}, the GS1 check digit of ${data} is ${expected}.`;
  return null;
}

/** Why `gln` is not a GLN, or null when it is one. */
export const glnProblem = (gln: string): string | null => keyProblem(gln, 'GLN', [13]);

/** Why `gtin` is not a GTIN, or null when it is one. */
export const gtinProblem = (gtin: string): string | null => keyProblem(gtin, 'GTIN', [8, 12, 13, 14]);

/** A valid GLN ending in the check digit of `data` (12 digits): for tests and examples. */
export const glnOf = (data: string): string => `${data}${gs1CheckDigit(data)}`;
