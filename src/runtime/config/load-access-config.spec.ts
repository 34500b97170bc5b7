import { loadAccessConfig } from './load-access-config';

const load = (env: Record<string, string>, demo = false) => {
  const problems: string[] = [];
  const access = loadAccessConfig(env, problems, demo);
  return { access, problems };
};

describe('loadAccessConfig', () => {
  it.each([
    ['the local demo', {}, true, false],
    ['a real CRM, PUBLIC_URL plain http (compose)', { PUBLIC_URL: 'http://api:3000' }, false, true],
    ['production, even as the demo', { NODE_ENV: 'production' }, true, true],
    ['turned off on purpose', { CONSOLE_COOKIE_SECURE: 'false' }, false, false],
  ])('cookie Secure and __Host- for %s', (_name, env, demo, secure) => {
    expect(load(env, demo).access.cookieSecure).toBe(secure);
  });

  it.each([
    [{}, false],
    [{ TRUST_PROXY: '1' }, 1],
    [{ TRUST_PROXY: 'loopback, 10.0.0.0/8' }, ['loopback', '10.0.0.0/8']],
  ])('TRUST_PROXY %j → %j', (env, trust) => expect(load(env).access.trustProxy).toEqual(trust));

  it('refuses TRUST_PROXY=true: any client could name its own address', () => {
    expect(load({ TRUST_PROXY: 'true' }).problems.join()).toContain('TRUST_PROXY=true');
  });

  it('serves the API docs outside production only, unless asked', () => {
    expect(load({}).access.apiDocs).toBe(true);
    expect(load({ NODE_ENV: 'production' }).access.apiDocs).toBe(false);
    expect(load({ NODE_ENV: 'production', API_DOCS: 'true' }).access.apiDocs).toBe(true);
  });

  it('reads OIDC and refuses a provider nobody would get a role from', () => {
    const ok = load({
      OIDC_ISSUER: 'https://id.example.com',
      OIDC_CLIENT_ID: 'crm',
      OIDC_ROLE_MAP: 'ops=operator',
      OIDC_EMAIL_DOMAIN_ROLES: 'Example.com=viewer',
    });
    expect(ok.problems).toEqual([]);
    expect(ok.access.oidc?.roles).toEqual({
      claim: 'groups',
      values: { ops: 'operator' },
      emailDomains: { 'example.com': 'viewer' },
    });
    expect(load({ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'crm' }).problems.join()).toContain(
      'nobody would get a role',
    );
    expect(load({ OIDC_ISSUER: 'https://id.example.com', OIDC_ROLE_MAP: 'a=root' }).problems.join()).toMatch(
      /OIDC_CLIENT_ID is required.*OIDC_ROLE_MAP/,
    );
  });
});
