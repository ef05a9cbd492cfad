import { glnOf, glnProblem, gs1CheckDigit } from '../../domain/gs1-keys';

describe('GLN check digits (GS1 mod 10)', () => {
  it('accepts GLNs whose last digit is the GS1 check digit', () => {
    for (const gln of ['7038010000010', '0614141000012', '7038010000027', '0614141000005'])
      expect(glnProblem(gln)).toBeNull();
    expect(gs1CheckDigit('061414100001')).toBe(2);
    expect(glnOf('703801000001')).toBe('7038010000010');
  });

  it('names what is wrong: the length, or the check digit it should have', () => {
    expect(glnProblem('12345')).toBe('12345 is not a GLN: a GLN is 13 digits.');
    expect(glnProblem('70380100000AB')).toBe('70380100000AB is not a GLN: a GLN is 13 digits.');
    expect(glnProblem('7038010000011')).toBe(
      '7038010000011 is not a GLN: its check digit is 1, the GS1 check digit of 703801000001 is 0.',
    );
  });
});
