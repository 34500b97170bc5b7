// The egress policy's table: each URL or resolved address and the refusal it meets (or none).
import { checkAddress, checkUrl, egressPolicy, hostAllowed } from './egress-policy';

const policy = egressPolicy({
  allowedHosts: ['erp.example.com', '*.shop.example', '127.0.0.1', '10.0.0.1', '169.254.169.254', '::1'],
  allowPrivate: ['127.0.0.2/32'],
});

describe('checkUrl', () => {
  it.each([
    ['https://erp.example.com/orders/1', undefined],
    ['http://api.shop.example/x', undefined],
    ['http://127.0.0.2:8080/', 'egress_host_not_allowed'],
    ['http://shop.example/', 'egress_host_not_allowed'],
    ['http://evil.com/?erp.example.com', 'egress_host_not_allowed'],
    ['http://erp.example.com.evil.com/', 'egress_host_not_allowed'],
    ['ftp://erp.example.com/', 'egress_scheme_refused'],
    ['file:///etc/passwd', 'egress_scheme_refused'],
    ['http://user:pw@erp.example.com/', 'egress_url_invalid'],
    ['http://127.0.0.1:3000/', 'egress_address_refused'],
    ['http://2130706433/', 'egress_address_refused'],
    ['http://0177.0.0.1/', 'egress_address_refused'],
    ['http://10.0.0.1/', 'egress_address_refused'],
    ['http://169.254.169.254/latest/meta-data/', 'egress_address_refused'],
    ['http://[::1]/', 'egress_address_refused'],
  ])('%s → %s', (url, code) => {
    expect(checkUrl(new URL(url), policy)?.code).toBe(code);
  });

  it('refuses every host while the allow-list is empty, saying so', () => {
    const refusal = checkUrl(
      new URL('https://erp.example.com/'),
      egressPolicy({ allowedHosts: [], allowPrivate: [] }),
    );
    expect(refusal?.message).toMatch(/HTTP_ACTION_ALLOWED_HOSTS is empty/);
  });
});

describe('checkAddress (after DNS)', () => {
  it.each([
    ['erp.example.com', '93.184.216.34', undefined],
    ['erp.example.com', '127.0.0.1', /127\.0\.0\.1 \(resolved from erp\.example\.com\): loopback/],
    ['erp.example.com', '::ffff:10.0.0.5', /private/],
    ['erp.example.com', '169.254.169.254', /cloud-metadata/],
    ['erp.example.com', 'fe80::1', /link-local/],
    ['erp.example.com', '100.64.1.1', /cgnat/],
    ['erp.example.com', '127.0.0.2', undefined],
  ])('%s at %s → %s', (host, address, expected) => {
    const refusal = checkAddress(host, address, policy);
    if (expected === undefined) expect(refusal).toBeUndefined();
    else expect(refusal?.message).toMatch(expected);
  });
});

describe('hostAllowed', () => {
  it.each([
    ['a.shop.example', true],
    ['a.b.shop.example', true],
    ['shop.example', false],
    ['xshop.example', false],
    ['ERP.example.com', true],
  ])('%s: %p', (host, expected) => expect(hostAllowed(host, policy.allowedHosts)).toBe(expected));

  // Finding: a wildcard matched address literals and ports were not restricted on allowed hosts.
  it.each([
    ['127.0.0.1', ['*.0.0.1'], undefined, false],
    ['10.0.0.1', ['*.0.1'], undefined, false],
    ['erp.example.com', ['erp.example.com:8443'], 8443, true],
    ['erp.example.com', ['erp.example.com:8443'], 22, false],
    ['erp.example.com', ['erp.example.com'], 22, true],
    ['a.shop.example', ['*.shop.example:443'], 443, true],
    ['a.shop.example', ['*.shop.example:443'], 80, false],
    ['::1', ['[::1]:8443'], 8443, true],
    ['::1', ['[::1]:8443'], 80, false],
  ])('%s against %j, port %p: %p', (host, allowed, port, expected) =>
    expect(hostAllowed(host, allowed, port)).toBe(expected),
  );

  it('refuses a URL on an allowed host at another port than the one pinned', () => {
    const pinned = egressPolicy({ allowedHosts: ['erp.example.com:8443'], allowPrivate: [] });
    expect(checkUrl(new URL('https://erp.example.com:8443/x'), pinned)).toBeUndefined();
    expect(checkUrl(new URL('https://erp.example.com/x'), pinned)?.message).toMatch(
      /port 443 is not the port/,
    );
    expect(checkUrl(new URL('http://erp.example.com:6379/'), pinned)?.code).toBe('egress_host_not_allowed');
  });
});
