// The http-request configuration: refused by default, each bad variable named, secrets read
// from HTTP_SECRET_* and the secrets file and never echoed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './load-config';

const SIGNING = 'engine-signing-secret-0123456789abcdef';

describe('http-request configuration', () => {
  it('allows no host by default', () => {
    expect(loadConfig({}).httpAction).toMatchObject({
      allowedHosts: [],
      allowPrivate: [],
      signingSecret: undefined,
      secrets: {},
      maxRedirects: 3,
      maxResponseBytes: 1024 * 1024,
    });
  });

  it.each([
    [{ HTTP_ACTION_ALLOWED_HOSTS: 'erp.example.com' }, /HTTP_ACTION_SIGNING_SECRET is required/],
    [{ HTTP_ACTION_SIGNING_SECRET: 'short' }, /HTTP_ACTION_SIGNING_SECRET must be at least 32/],
    [
      { HTTP_ACTION_ALLOWED_HOSTS: 'http://erp.example.com', HTTP_ACTION_SIGNING_SECRET: SIGNING },
      /is not a host name/,
    ],
    // Finding: the allow-list accepted `*.0.0.1`. Wildcards only over registrable names.
    ...['*.0.0.1', '*.1', '*.com', '*.10.0.0.1', '*.[::1]', 'erp.example.com:99999', '*.*.example.com'].map(
      (entry): [Record<string, string>, RegExp] => [
        { HTTP_ACTION_ALLOWED_HOSTS: entry, HTTP_ACTION_SIGNING_SECRET: SIGNING },
        /HTTP_ACTION_ALLOWED_HOSTS: ".*" (is a wildcard|has a port|is not a host name)/,
      ],
    ),
    [
      { HTTP_ACTION_HOST_SIGNING_SECRETS: 'erp.example.com=ERP_SIGNING' },
      /secret ERP_SIGNING must be configured/,
    ],
    [{ HTTP_ACTION_HOST_SIGNING_SECRETS: 'erp.example.com' }, /must be host=SECRET_NAME/],
    [{ HTTP_ACTION_ALLOW_PRIVATE: '127.0.0.1/40' }, /HTTP_ACTION_ALLOW_PRIVATE: "127.0.0.1\/40"/],
    [{ HTTP_ACTION_MAX_REDIRECTS: '50' }, /HTTP_ACTION_MAX_REDIRECTS must be an integer between 0 and 10/],
    [{ HTTP_ACTION_SECRETS_FILE: '/nonexistent/secrets.json' }, /names a file that does not exist/],
  ])('refuses %p', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    'erp.example.com',
    'erp.example.com:8443',
    '*.example.com',
    '*.shop.example:443',
    '10.0.0.1:80',
    '::1',
    '[::1]:8443',
  ])('accepts the allow-list entry %s', (entry) => {
    const env = { HTTP_ACTION_ALLOWED_HOSTS: entry, HTTP_ACTION_SIGNING_SECRET: SIGNING };
    expect(loadConfig(env).httpAction.allowedHosts).toEqual([entry]);
  });

  it('never echoes the signing secret', () => {
    expect(() => loadConfig({ HTTP_ACTION_SIGNING_SECRET: 'hunter2' })).toThrow(/^(?![\s\S]*hunter2)/);
  });

  it('reads secrets from HTTP_SECRET_* and the file (the file wins), never echoing a bad file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmr-secrets-'));
    const good = join(dir, 'secrets.json');
    writeFileSync(good, JSON.stringify({ ERP_TOKEN: 'from-file', SHOP_KEY: 'k' }));
    const config = loadConfig({
      HTTP_ACTION_ALLOWED_HOSTS: 'erp.example.com, *.shop.example',
      HTTP_ACTION_SIGNING_SECRET: SIGNING,
      HTTP_SECRET_ERP_TOKEN: 'from-env',
      HTTP_SECRET_OTHER: 'o',
      HTTP_ACTION_SECRETS_FILE: good,
    });
    expect(config.httpAction.allowedHosts).toEqual(['erp.example.com', '*.shop.example']);
    expect(config.httpAction.secrets).toEqual({ ERP_TOKEN: 'from-file', SHOP_KEY: 'k', OTHER: 'o' });
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"ERP_TOKEN": "hunter2",');
    expect(() => loadConfig({ HTTP_ACTION_SECRETS_FILE: bad })).toThrow(
      /^(?![\s\S]*hunter2)[\s\S]*JSON object/,
    );
  });
});
