/**
 * Repeatable query parameters (`?ProductIds=a&ProductIds=b`). SPEC.md rules out JSON arrays and
 * comma-separated lists, so a value that looks like either is refused rather than read as one id.
 */
export type RawParam = string | string[] | undefined;

export class RepeatedParamError extends Error {
  constructor(readonly param: string) {
    super(`${param} takes one id per parameter: repeat it (?${param}=a&${param}=b); JSON arrays and comma-separated lists are not supported.`);
  }
}

export function repeated(param: string, raw: RawParam): string[] {
  const values = (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]).map((v) => v.trim()).filter((v) => v !== '');
  for (const value of values) {
    if (value.includes(',') || /^\[.*\]$/s.test(value)) throw new RepeatedParamError(param);
  }
  return [...new Set(values)];
}

export interface Paging {
  pageNumber: number;
  pageSize: number;
}

export const MAX_PAGE_SIZE = 100;

/** PageNumber/PageSize: defaults 1 and 20, page size capped; undefined when either is not a positive integer. */
export function paging(pageNumber: RawParam, pageSize: RawParam, defaultSize = 20): Paging | undefined {
  const read = (raw: RawParam, fallback: number): number | undefined => {
    if (raw === undefined || raw === '') return fallback;
    if (Array.isArray(raw) || !/^\d+$/.test(raw.trim())) return undefined;
    const n = Number(raw);
    return n >= 1 ? n : undefined;
  };
  const number = read(pageNumber, 1);
  const size = read(pageSize, defaultSize);
  if (number === undefined || size === undefined) return undefined;
  return { pageNumber: number, pageSize: Math.min(size, MAX_PAGE_SIZE) };
}

export function page<T>(items: T[], totalItems: number, { pageNumber, pageSize }: Paging) {
  const totalPages = Math.ceil(totalItems / pageSize);
  return { totalPages, pageNumber, pageSize, totalItems, results: items, hasNextPage: pageNumber < totalPages, hasPreviousPage: pageNumber > 1 };
}
