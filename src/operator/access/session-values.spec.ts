import {
  isSameOrigin,
  isWellFormedSessionId,
  newSessionId,
  sessionIdHash,
  tokenFingerprint,
} from './session-values';

describe('console session values', () => {
  const token = 'f3a9c1d2e4b5a6978877665544332211ffeeddccbbaa0099';

  it('makes a new random id every time, in the shape it accepts', () => {
    const ids = new Set(Array.from({ length: 100 }, newSessionId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(isWellFormedSessionId(id)).toBe(true);
  });

  it('keeps neither the id nor the token in what it stores', () => {
    const id = newSessionId();
    expect(sessionIdHash(id)).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionIdHash(id)).not.toContain(id);
    expect(tokenFingerprint(token)).not.toContain(token);
  });

  it('fingerprints two tokens differently and one token the same way', () => {
    expect(tokenFingerprint(token)).toBe(tokenFingerprint(token));
    expect(tokenFingerprint(token)).not.toBe(tokenFingerprint(`${token}0`));
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['the old signed format', '1700000000000.abcdefghijklmnop.c2lnbmF0dXJl'],
    ['too long', 'a'.repeat(44)],
    ['not base64url', `${'a'.repeat(42)}=`],
    ['not a string', ['a'.repeat(43)]],
  ])('refuses a cookie that is %s', (_name, value) => {
    expect(isWellFormedSessionId(value)).toBe(false);
  });

  it.each([
    [{ 'sec-fetch-site': 'same-origin', host: 'a:3000' }, true],
    [{ 'sec-fetch-site': 'none', host: 'a:3000' }, true],
    [{ 'sec-fetch-site': 'cross-site', host: 'a:3000' }, false],
    [{ 'sec-fetch-site': 'same-site', host: 'a:3000' }, false],
    [{ origin: 'http://a:3000', host: 'a:3000' }, true],
    [{ origin: 'http://evil.test', host: 'a:3000' }, false],
    [{ origin: 'null', host: 'a:3000' }, false],
    [{ host: 'a:3000' }, true],
  ])('same-origin check of %j is %s', (headers, expected) => {
    expect(isSameOrigin(headers)).toBe(expected);
  });
});
