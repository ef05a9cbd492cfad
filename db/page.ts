import type { Query } from './sql';

/** One page of a list, as the queries take it: the API turns PageNumber/PageSize into this. */
export interface PageRequest {
  pageNumber: number;
  pageSize: number;
  offset: number;
}

/**
 * One page of a query's rows and how many it has in all: `select` takes the page as its last two
 * parameters (OFFSET, LIMIT) after `bind`; `count` answers one row `n` from `bind` alone.
 */
export async function pageOfRows<T extends object>(
  query: Query,
  select: string,
  count: string,
  bind: unknown[],
  page: PageRequest,
): Promise<{ rows: T[]; total: number }> {
  const rows = await query<T>(select, [...bind, page.offset, page.pageSize]);
  const [{ n }] = await query<{ n: string }>(count, bind);
  return { rows, total: Number(n) };
}
