/**
 * The GS1 keys locations and products carry: Global Location Numbers (13 digits) and Global Trade Item
 * Numbers (8, 12, 13 or 14), the last digit a check digit (GS1 General Specifications, the mod-10
 * algorithm: weights 3 and 1 alternating from the rightmost data digit; epcis/identifiers.ts).
 */
import { checkDigit } from './epcis/identifiers';

export const GLN_PATTERN = /^\d{13}$/;

export const gs1CheckDigit = (data: string): number => Number(checkDigit(data));

/** Why `gln` is not a GLN, or null when it is one. */
export function glnProblem(gln: string): string | null {
  if (!GLN_PATTERN.test(gln)) return `${gln} is not a GLN: a GLN is 13 digits.`;
  const expected = gs1CheckDigit(gln.slice(0, 12));
  if (Number(gln[12]) !== expected)
    return `${gln} is not a GLN: its check digit is ${gln[12]}, the GS1 check digit of ${gln.slice(0, 12)} is ${expected}.`;
  return null;
}

/** A valid GLN ending in the check digit of `data` (12 digits): for tests and examples. */
export const glnOf = (data: string): string => `${data}${gs1CheckDigit(data)}`;

/** Why `gtin` is not a GTIN, or null when it is one. */
export function gtinProblem(gtin: string): string | null {
  if (!/^(\d{8}|\d{12,14})$/.test(gtin)) return `${gtin} is not a GTIN: a GTIN is 8, 12, 13 or 14 digits.`;
  const data = gtin.slice(0, -1);
  const expected = gs1CheckDigit(data);
  if (Number(gtin.at(-1)) !== expected)
    return `${gtin} is not a GTIN: its check digit is ${gtin.at(-1)}, the GS1 check digit of ${data} is ${expected}.`;
  return null;
}
