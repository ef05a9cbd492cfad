import { repeated, RepeatedParamError } from '../../domain/query-params';

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
