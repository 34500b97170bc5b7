import { isSameOrigin, issueSession, sessionKey, verifySession } from './console-session';

describe('console session cookie', () => {
  const key = sessionKey('a-long-enough-admin-token-for-tests-0001');
  const now = 1_700_000_000_000;

  it('verifies a cookie it issued until it expires', () => {
    const cookie = issueSession(key, now, 1000);
    expect(verifySession(key, cookie, now + 999)).toEqual({ id: expect.any(String), expiresAt: now + 1000 });
    expect(verifySession(key, cookie, now + 1000)).toBeNull();
  });

  it('never contains the admin token', () => {
    expect(issueSession(key, now)).not.toContain('a-long-enough-admin-token');
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['not three parts', 'abc.def'],
    ['expiry changed', (c: string) => c.replace(/^\d+/, String(now + 10 ** 9))],
    ['signature changed', (c: string) => c.slice(0, -2) + (c.endsWith('A') ? 'BB' : 'AA')],
    ['signed with another token', () => issueSession(sessionKey('another-admin-token-of-32-chars-000'), now)],
  ])('refuses a cookie that is %s', (_name, make) => {
    const cookie = typeof make === 'function' ? make(issueSession(key, now)) : make;
    expect(verifySession(key, cookie, now)).toBeNull();
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
