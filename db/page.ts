/** One page of a list, as the queries take it: the API turns PageNumber/PageSize into this. */
export interface PageRequest {
  pageNumber: number;
  pageSize: number;
  offset: number;
}
