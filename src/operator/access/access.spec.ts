import { apiTokenHash, looksLikeApiToken, newApiToken } from './api-token';
import { clientKey } from './client-key';
import { parseRoleMap, roleFromClaims } from '../roles/oidc-roles';
import { hashPassword, passwordWeakness, verifyPassword } from './password';
import { allows, type RouteAccess, type Role } from '../roles/roles';

describe('roles', () => {
  it.each<[Role, RouteAccess, boolean]>([
    ['viewer', 'public', true],
    ['viewer', 'viewer', true],
    ['viewer', 'operator', false],
    ['viewer', 'admin', false],
    ['operator', 'viewer', true],
    ['operator', 'operator', true],
    ['operator', 'admin', false],
    ['admin', 'admin', true],
    ['admin', 'viewer', true],
  ])('%s on a %s route: %s', (role, needed, ok) => expect(allows(role, needed)).toBe(ok));
});

describe('clientKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::99', '2001:db8:1:2::/64'],
    ['2001:DB8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    [undefined, 'unknown'],
  ])('keys %s as %s', (address, key) => expect(clientKey(address)).toBe(key));

  it('gives two addresses of one /64 the same key and of two /64s different keys', () => {
    expect(clientKey('2001:db8:a:b::1')).toBe(clientKey('2001:db8:a:b:ffff:ffff:ffff:ffff'));
    expect(clientKey('2001:db8:a:b::1')).not.toBe(clientKey('2001:db8:a:c::1'));
  });
});

describe('passwords', () => {
  it('verifies the password it hashed and nothing else', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1$1$1$a$b')).toBe(false);
  });

  it.each([
    ['short', 'at least 12'],
    ['aaaaaaaaaaaaaaa', 'different characters'],
  ])('refuses the new password %s', (pw, why) => expect(passwordWeakness(pw)).toContain(why));
});

describe('API tokens', () => {
  it('are recognisable, random and kept as a digest', () => {
    const [a, b] = [newApiToken(), newApiToken()];
    expect(looksLikeApiToken(a)).toBe(true);
    expect(a).not.toBe(b);
    expect(apiTokenHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(looksLikeApiToken('test-admin-token-0123456789abcdef')).toBe(false);
  });
});

describe('OIDC role mapping', () => {
  const mapping = {
    claim: 'groups',
    values: parseRoleMap('crm-ops=operator, crm-view=viewer,crm-admins=admin', 'OIDC_ROLE_MAP'),
    emailDomains: parseRoleMap('example.com=viewer', 'OIDC_EMAIL_DOMAIN_ROLES'),
  };
  it.each<[string, Record<string, unknown>, Role | undefined]>([
    ['a mapped group', { groups: ['crm-ops'] }, 'operator'],
    ['the highest of several groups', { groups: ['crm-view', 'crm-admins'] }, 'admin'],
    ['a single string claim', { groups: 'crm-view' }, 'viewer'],
    ['a verified email domain', { email: 'Dana@Example.com', email_verified: true }, 'viewer'],
    ['an unverified email domain', { email: 'dana@example.com', email_verified: false }, undefined],
    [
      'a group beating the domain',
      { email: 'a@example.com', email_verified: true, groups: ['crm-ops'] },
      'operator',
    ],
    ['nothing mapped', { groups: ['other'], email: 'a@elsewhere.org', email_verified: true }, undefined],
    ['a prototype key', { groups: ['constructor', '__proto__'] }, undefined],
  ])('%s', (_, claims, role) => expect(roleFromClaims(claims, mapping)).toBe(role));

  it('refuses a map naming no real role', () => {
    expect(() => parseRoleMap('a=root', 'OIDC_ROLE_MAP')).toThrow('OIDC_ROLE_MAP');
  });
});
