// The load-time warning about http-request hosts off the allow-list, where the host is written out.
import { loadRulesFromFiles } from '../format/load-rules';

const RULES = `
rule: r
on: contact.created
do:
  - add-tag: x
  - http-request: { name: a, url: "https://erp.example.com/x" }
  - http-request: { name: b, url: "https://evil.example.net/x" }
  - http-request: { name: c, url: "https://{{contact.name}}.example.net/x" }
`;
const warnings = (allowedHosts?: string[]) =>
  loadRulesFromFiles([{ path: 'r.yaml', text: RULES }], { allowedHosts }).problems.map(
    (p) => `${p.line} ${p.severity} ${p.code}: ${p.message}`,
  );

describe('hosts off the allow-list', () => {
  it.each([
    [
      ['erp.example.com'],
      [
        '7 warning host-not-allowed: host evil.example.net is not on HTTP_ACTION_ALLOWED_HOSTS (allowed: erp.example.com): this request will be refused',
      ],
    ],
    [['*.example.com', '*.example.net'], []],
    [
      [],
      [
        '6 warning host-not-allowed: host erp.example.com is not on HTTP_ACTION_ALLOWED_HOSTS (no host is allowed): this request will be refused',
        '7 warning host-not-allowed: host evil.example.net is not on HTTP_ACTION_ALLOWED_HOSTS (no host is allowed): this request will be refused',
      ],
    ],
    [undefined, []],
  ])('allowed %p: %p', (allowed, expected) => expect(warnings(allowed)).toEqual(expected));
});

// A recipe's `${secret.X}` copied before its host is allowed: one warning (the host), no error.
describe('secrets sent to hosts', () => {
  const SECRET_RULE = `
rule: s
on: contact.created
do:
  - http-request: { name: a, url: "https://erp.example.com/x", headers: { Authorization: "Bearer \${secret.ERP_TOKEN}" } }
`;
  const problems = (allowedHosts: string[] | undefined, secretHosts: Record<string, string[]>) =>
    loadRulesFromFiles([{ path: 's.yaml', text: SECRET_RULE }], { allowedHosts, secretHosts }).problems.map(
      (p) => `${p.severity} ${p.code}`,
    );

  it.each([
    ['host allowed, secret names it', ['erp.example.com'], { ERP_TOKEN: ['erp.example.com'] }, []],
    ['host allowed, secret names none', ['erp.example.com'], {}, ['error secret-host-not-allowed']],
    ['host not allowed: the host warning alone', [], {}, ['warning host-not-allowed']],
    ['no allow-list given: the secret checked', undefined, {}, ['error secret-host-not-allowed']],
  ])('%s', (_case, allowed, secrets, expected) => expect(problems(allowed, secrets)).toEqual(expected));
});
