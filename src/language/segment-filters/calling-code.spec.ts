import { callingCodeDigits } from './calling-code';

describe('callingCodeDigits', () => {
  it.each([
    ['55', '55'],
    ['+351', '351'],
    ['PT', '351'],
    ['us', '1'],
  ])('%s → %s', (code, digits) => {
    expect(callingCodeDigits(code)).toBe(digits);
  });

  it('refuses a code that is neither digits nor a country', () => {
    expect(() => callingCodeDigits('XX')).toThrow(/neither a calling code/);
  });
});
