/** Paging of a list as SPEC.md gives it (its schemas and 400: contract/paging.ts): the page asked for, and the body answering it. */
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  PAGE_QUERY_ERROR,
  pageQuerySchema,
  type PageQuery,
} from '../contract/paging';
import type { PageRequest } from '../db/page';
import { rawError } from './errors';
import { validate } from './middleware/validate';

export const validatePage = () => validate({ query: pageQuerySchema }, () => rawError(400, PAGE_QUERY_ERROR));

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
