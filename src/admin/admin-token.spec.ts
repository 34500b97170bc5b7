import { presentedToken, tokenMatches } from './admin-token';

describe('admin token', () => {
  it.each([
    [{ 'x-admin-token': 'abc' }, 'abc'],
    [{ authorization: 'Bearer abc' }, 'abc'],
    [{ authorization: `Basic ${Buffer.from('admin:abc').toString('base64')}` }, 'abc'],
    [{ authorization: 'Token abc' }, undefined],
    [{}, undefined],
  ])('reads the token from %j', (headers, expected) => {
    expect(presentedToken(headers)).toBe(expected);
  });

  it('matches only the exact token and never an unset one', () => {
    expect(tokenMatches('secret', 'secret')).toBe(true);
    expect(tokenMatches('secret', 'secreT')).toBe(false);
    expect(tokenMatches('secret', 'secret ')).toBe(false);
    expect(tokenMatches(undefined, 'x')).toBe(false);
    expect(tokenMatches('secret', undefined)).toBe(false);
  });
});
