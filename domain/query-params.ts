/**
 * Repeatable query parameters (`?ProductIds=a&ProductIds=b`). SPEC.md rules out JSON arrays and
 * comma-separated lists, so a value that looks like either is refused rather than read as one id.
 */
export type RawParam = string | string[] | undefined;

export class RepeatedParamError extends Error {
  constructor(readonly param: string) {
    super(
      `${param} takes one id per parameter: repeat it (?${param}=a&${param}=b); JSON arrays and comma-separated lists are not supported.`,
    );
  }
}

export function repeated(param: string, raw: RawParam): string[] {
  const values = (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw])
    .map((v) => v.trim())
    .filter((v) => v !== '');
  for (const value of values) {
    if (value.includes(',') || /^\[.*\]$/s.test(value)) throw new RepeatedParamError(param);
  }
  return [...new Set(values)];
}
