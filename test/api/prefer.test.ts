import { preferredWaitSeconds } from '../../api/prefer';

describe("RFC 7240's wait preference", () => {
  it.each([
    ['wait=10', 10],
    ['WAIT = 10', 10],
    ['respond-async, wait=5', 5],
    ['wait="7"', 7],
    ['wait=3; foo=bar', 3],
    ['wait=5, wait=9', 5],
    ['wait=99999999999', 99999999999],
  ])('reads %s as %s seconds', (prefer, seconds) => expect(preferredWaitSeconds(prefer)).toBe(seconds));

  it.each(['', 'respond-async', 'wait', 'wait=soon', 'wait=-1', 'wait=1.5', 'wait=soon, wait=5', 'waiting=5'])(
    'ignores %j',
    (prefer) => expect(preferredWaitSeconds(prefer)).toBeUndefined(),
  );
});
