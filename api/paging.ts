/** `PageNumber`/`PageSize` of every paged list, as SPEC.md gives them for GET /Integration/Locations. */
import type { Middleware } from 'koa';
import type { AppCustom, AppState } from './context';
import { rawError } from './errors';
import { validate } from './middleware/validate';

export const DEFAULT_PAGE_SIZE = 20;
/** Larger requests are answered with this many results (README.md, Master data). */
export const MAX_PAGE_SIZE = 100;

/** Query values arrive as strings; at most nine digits keeps the offset a safe integer. */
const positiveInteger = (description: string, example: string) => ({
  type: 'string',
  pattern: '^0*[1-9][0-9]{0,8}$',
  description,
  example,
});

export const pageQuerySchema = {
  type: 'object',
  description: 'Paging of a list, in creation order.',
  properties: {
    PageNumber: positiveInteger('Page to return, from 1. Default 1.', '1'),
    PageSize: positiveInteger(`Results per page, from 1. Default ${DEFAULT_PAGE_SIZE}; larger values are capped at ${MAX_PAGE_SIZE}.`, '20'),
  },
};

export interface PageQuery {
  PageNumber?: string;
  PageSize?: string;
}

export const PAGE_ERROR = 'PageNumber and PageSize must be greater than 0.';

export const validatePage = (): Middleware<AppState, AppCustom> => validate(pageQuerySchema, 'query', () => rawError(400, PAGE_ERROR));

export interface PageRequest {
  pageNumber: number;
  pageSize: number;
  offset: number;
}

export function pageOf(query: PageQuery): PageRequest {
  const pageNumber = query.PageNumber === undefined ? 1 : Number(query.PageNumber);
  const pageSize = Math.min(query.PageSize === undefined ? DEFAULT_PAGE_SIZE : Number(query.PageSize), MAX_PAGE_SIZE);
  return { pageNumber, pageSize, offset: (pageNumber - 1) * pageSize };
}

export function pageBody<T>(page: PageRequest, totalItems: number, results: T[]) {
  const totalPages = Math.ceil(totalItems / page.pageSize);
  return {
    totalPages,
    pageNumber: page.pageNumber,
    pageSize: page.pageSize,
    totalItems,
    results,
    hasNextPage: page.pageNumber < totalPages,
    hasPreviousPage: page.pageNumber > 1,
  };
}
