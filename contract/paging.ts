/** `PageNumber`/`PageSize` of every paged list, as SPEC.md gives them for GET /Integration/Locations. */
import { withLimits } from '../domain/schemas/limits';
import { closed } from './openapi/schema';

export const DEFAULT_PAGE_SIZE = 20;
/** Larger requests are answered with this many results (README.md, Master data). */
export const MAX_PAGE_SIZE = 100;

/** Query values arrive as strings; at most nine digits keeps the offset a safe integer. */
const positiveInteger = (description: string, example: string) =>
  ({ type: 'string', pattern: '^0*[1-9][0-9]{0,8}$', description, example }) as const;

export const pageQuerySchema = withLimits({
  type: 'object',
  description: 'Paging of a list, in creation order.',
  properties: {
    PageNumber: positiveInteger('Page to return, from 1. Default 1.', '1'),
    PageSize: positiveInteger(
      `Results per page, from 1. Default ${DEFAULT_PAGE_SIZE}; larger values are capped at ${MAX_PAGE_SIZE}.`,
      '20',
    ),
  },
} as const);

export interface PageQuery {
  PageNumber?: string;
  PageSize?: string;
}

/** SPEC.md, Errors: PageNumber or PageSize below 1 is a 400 with a plain JSON string body. */
export const PAGE_QUERY_ERROR = 'PageNumber and PageSize must be greater than 0.';

/** The 400 answer of a paged list whose PageNumber or PageSize is not a whole number of at least 1. */
export const pageQueryErrorResponse = {
  description: 'PageNumber or PageSize is below 1 (or not a whole number): a plain JSON string.',
  schema: {
    type: 'string',
    enum: [PAGE_QUERY_ERROR],
    description: 'A plain JSON string (not a problem body): PageNumber or PageSize is below 1 or not a whole number.',
  },
  example: PAGE_QUERY_ERROR,
} as const;

/** The body pageBody answers with, around the schema of one result. */
export const pageBodySchema = (item: object, description: string) =>
  ({
    type: 'object',
    description,
    ...closed({
      totalPages: { type: 'integer', minimum: 0, description: 'Pages at this page size; 0 when there are no results.' },
      pageNumber: { type: 'integer', minimum: 1, description: 'The page returned (PageNumber).' },
      pageSize: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_PAGE_SIZE,
        description: `Results per page: PageSize, capped at ${MAX_PAGE_SIZE}.`,
      },
      totalItems: { type: 'integer', minimum: 0, description: 'Results on all pages together.' },
      results: {
        type: 'array',
        items: item,
        description: 'This page of results, in creation order; empty past the last page.',
      },
      hasNextPage: { type: 'boolean', description: 'Whether a page after this one has results.' },
      hasPreviousPage: { type: 'boolean', description: 'Whether this is not the first page.' },
    }),
  }) as const;

/** The example answer of a list whose one page holds `result` alone. */
export const onePageExample = (result: unknown) => ({
  totalPages: 1,
  pageNumber: 1,
  pageSize: DEFAULT_PAGE_SIZE,
  totalItems: 1,
  results: [result],
  hasNextPage: false,
  hasPreviousPage: false,
});
