import { MAX_PAGE_SIZE, page, paging, repeated, RepeatedParamError } from '../../domain/query-params';

describe('repeatable query parameters', () => {
  it('reads one value or many, trimmed and de-duplicated', () => {
    expect(repeated('P', undefined)).toEqual([]);
    expect(repeated('P', 'a')).toEqual(['a']);
    expect(repeated('P', ['a', ' b ', 'a', ''])).toEqual(['a', 'b']);
  });

  it.each([['a,b'], ['["a","b"]'], [['ok', 'x,y']]])('refuses %j', (raw) => {
    expect(() => repeated('ProductIds', raw)).toThrow(RepeatedParamError);
  });
});

describe('paging', () => {
  it('defaults to page 1 of 20 and caps the size', () => {
    expect(paging(undefined, undefined)).toEqual({ pageNumber: 1, pageSize: 20 });
    expect(paging('3', '1000')).toEqual({ pageNumber: 3, pageSize: MAX_PAGE_SIZE });
  });

  it.each([['0', '1'], ['1', '0'], ['-1', '5'], ['1.5', '5'], ['x', '5'], [['1', '2'], '5']])('refuses PageNumber %j with PageSize %j', (n, s) => {
    expect(paging(n, s)).toBeUndefined();
  });

  it('describes the page', () => {
    expect(page(['x'], 41, { pageNumber: 3, pageSize: 20 })).toEqual({
      totalPages: 3, pageNumber: 3, pageSize: 20, totalItems: 41, results: ['x'], hasNextPage: false, hasPreviousPage: true,
    });
  });
});
