import { checkAdminRequest, fromSameSite, presentedToken, tokenMatches } from './admin-token';

const TOKEN = 'a'.repeat(32);
const basic = (password: string) => `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

describe('admin token', () => {
  it.each([
    [{ 'x-admin-token': 'abc' }, { token: 'abc', source: 'header' }],
    [{ authorization: 'Bearer abc' }, { token: 'abc', source: 'bearer' }],
    [{ authorization: basic('abc') }, { token: 'abc', source: 'basic' }],
    [{ authorization: 'Token abc' }, undefined],
    [{}, undefined],
  ])('reads the token from %j', (headers, expected) => {
    expect(presentedToken(headers)).toEqual(expected);
  });

  it('matches only the exact token and never an unset one', () => {
    expect(tokenMatches('secret', 'secret')).toBe(true);
    expect(tokenMatches('secret', 'secreT')).toBe(false);
    expect(tokenMatches('secret', 'secret ')).toBe(false);
    expect(tokenMatches(undefined, 'x')).toBe(false);
    expect(tokenMatches('secret', undefined)).toBe(false);
  });

  it.each([
    ['no browser headers (curl, scripts)', {}, true],
    ['same-origin fetch', { 'sec-fetch-site': 'same-origin', origin: 'http://h:3000', host: 'h:3000' }, true],
    ['typed in the address bar', { 'sec-fetch-site': 'none' }, true],
    ['another site', { 'sec-fetch-site': 'cross-site' }, false],
    ['a sibling subdomain', { 'sec-fetch-site': 'same-site' }, false],
    ['an Origin of another host', { origin: 'http://evil.test', host: 'h:3000' }, false],
    ['an opaque Origin', { origin: 'null', host: 'h:3000' }, false],
    [
      'an Origin matching the forwarded host',
      { origin: 'https://ops.test', 'x-forwarded-host': 'ops.test', host: 'internal:3000' },
      true,
    ],
  ])('fromSameSite: %s', (_name, headers, expected) => {
    expect(fromSameSite(headers)).toBe(expected);
  });

  const cases: [string, string, Record<string, string>, boolean, number | 'ok'][] = [
    ['GET with X-Admin-Token', 'GET', { 'x-admin-token': TOKEN }, false, 'ok'],
    ['GET with a Bearer token', 'GET', { authorization: `Bearer ${TOKEN}` }, false, 'ok'],
    ['GET with basic auth on the API', 'GET', { authorization: basic(TOKEN) }, false, 401],
    ['GET with basic auth on the board', 'GET', { authorization: basic(TOKEN) }, true, 'ok'],
    ['POST with X-Admin-Token', 'POST', { 'x-admin-token': TOKEN }, false, 'ok'],
    ['POST with a Bearer token', 'POST', { authorization: `Bearer ${TOKEN}` }, false, 401],
    ['POST with basic auth on the API', 'POST', { authorization: basic(TOKEN) }, false, 401],
    [
      'PUT from the board page itself',
      'PUT',
      { authorization: basic(TOKEN), 'sec-fetch-site': 'same-origin' },
      true,
      'ok',
    ],
    [
      'PUT to the board from another site',
      'PUT',
      { authorization: basic(TOKEN), 'sec-fetch-site': 'cross-site' },
      true,
      403,
    ],
    [
      'POST with X-Admin-Token from another Origin',
      'POST',
      { 'x-admin-token': TOKEN, origin: 'http://evil.test', host: 'h' },
      false,
      403,
    ],
    ['POST with a wrong token', 'POST', { 'x-admin-token': 'b'.repeat(32) }, false, 401],
    ['GET without a token', 'GET', {}, false, 401],
  ];
  it.each(cases)('checkAdminRequest: %s', (_name, method, headers, allowBasic, expected) => {
    const decision = checkAdminRequest({ method, headers }, TOKEN, { allowBasic });
    expect(decision.ok ? 'ok' : decision.status).toBe(expected);
  });

  // Every way a request can come (method, token or none, where it comes from), basic allowed or not.
  const unsetCases = (['GET', 'HEAD', 'POST', 'PUT', 'DELETE'] as const).flatMap((method) =>
    [
      {},
      { 'x-admin-token': TOKEN },
      { 'x-admin-token': '' },
      { authorization: `Bearer ${TOKEN}` },
      { authorization: basic(TOKEN) },
      { authorization: basic('') },
      { 'x-admin-token': TOKEN, 'sec-fetch-site': 'same-origin' },
      { 'x-admin-token': TOKEN, origin: 'http://evil.test', host: 'h' },
    ].flatMap((headers) => [true, false].map((allowBasic) => [method, headers, allowBasic] as const)),
  );
  it.each(unsetCases)(
    'answers 503 while ADMIN_TOKEN is unset: %s %j (basic allowed: %s)',
    (method, headers, allowBasic) => {
      expect(checkAdminRequest({ method, headers }, undefined, { allowBasic })).toMatchObject({
        ok: false,
        status: 503,
      });
      expect(checkAdminRequest({ method, headers }, '', { allowBasic })).toMatchObject({
        ok: false,
        status: 503,
      });
    },
  );
});
