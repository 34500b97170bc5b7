// The http-request entry: what a rule may write (problems at load time), how URLs are rendered
// (a fact cannot add a path or a host), and how later steps name saved values.
import { loadRulesFromFiles } from '../rules/format/load-rules';
import { staticHost } from './http-request.action';
import { renderUrl } from './render-url';

const problemsOf = (steps: string) =>
  loadRulesFromFiles([{ path: 'r.yaml', text: `rule: r\non: contact.created\ndo:\n${steps}` }]).problems.map(
    (p) => `${p.code}: ${p.message}`,
  );

describe('http-request in rules', () => {
  it('accepts a full step and a later step reading its saved value', () => {
    expect(
      problemsOf(`  - http-request:
      name: erp-lookup
      method: POST
      url: "https://erp.example.com/orders/{{contact.id}}"
      headers: { Authorization: "Bearer \${secret.ERP_TOKEN}", X-Contact: "{{contact.name}}" }
      body: { phone: "{{contact.phone}}", tags: ["a", 1, true, null] }
      timeout: 5s
      save: { status: "$.order.status" }
  - set-field: { key: company, value: "{{steps.erp-lookup.status}}" }
`),
    ).toEqual([]);
  });

  it.each([
    [
      'a secret in the URL',
      'url: "https://e.com/?k=${secret.K}"',
      /secrets \(\$\{secret.NAME\}\) go in header values only/,
    ],
    ['a secret in the body', 'url: "https://e.com/", body: { k: "${secret.K}" }', /go in header values only/],
    [
      'a malformed reference',
      'url: "https://e.com/", headers: { A: "${secret.lower}" }',
      /names a secret as/,
    ],
    ['a GET with a body', 'method: GET, url: "https://e.com/", body: { a: 1 }', /a GET request has no body/],
    ['another scheme', 'url: "ftp://e.com/"', /must start with http/],
    ['a long timeout', 'url: "https://e.com/", timeout: 5m', /at most 60s/],
    ['a path that is not in the subset', 'url: "https://e.com/", save: { a: "$..a" }', /only .name/],
    ['a bad name', 'name: Erp_Lookup, url: "https://e.com/"', /lower-case letters/],
  ])('reports %s', (_what, value, message) => {
    const named = value.startsWith('name:') ? value : `name: s, ${value}`;
    expect(problemsOf(`  - http-request: { ${named} }\n`).join('\n')).toMatch(message);
  });

  it.each([
    ['a step that does not exist', '{{steps.nope.status}}', /no http-request named "nope" comes before/],
    ['a key it does not save', '{{steps.erp.other}}', /http-request "erp" saves status/],
    ['a malformed reference', '{{steps.erp}}', /saved values read \{\{steps.<name>.<key>\}\}/],
  ])('reports a later step reading %s', (_what, template, message) => {
    const steps = `  - http-request: { name: erp, url: "https://e.com/", save: { status: "$.s" } }
  - set-field: { key: company, value: "${template}" }
`;
    expect(problemsOf(steps).join('\n')).toMatch(message);
  });

  it('reports a saved value read before the step that saves it, and two steps of one name', () => {
    const problems = problemsOf(`  - set-field: { key: company, value: "{{steps.erp.status}}" }
  - http-request: { name: erp, url: "https://e.com/", save: { status: "$.s" } }
  - http-request: { name: erp, url: "https://e.com/" }
`);
    expect(problems).toEqual([
      expect.stringMatching(/no http-request named "erp" comes before/),
      expect.stringMatching(/another http-request of this rule is named "erp"/),
    ]);
  });
});

describe('URLs', () => {
  const facts: Record<string, string> = {
    '{{contact.id}}': 'c/../../admin?x=1',
    '{{contact.name}}': 'Ana Sá',
  };
  const render = (tag: string) => facts[tag] ?? '';

  it.each([
    ['https://e.com/c/{{contact.id}}', 'https://e.com/c/c%2F..%2F..%2Fadmin%3Fx%3D1'],
    ['https://e.com/?q={{contact.name}}', 'https://e.com/?q=Ana%20S%C3%A1'],
    ['https://{{contact.name}}.e.com/', 'https://Ana%20S%C3%A1.e.com/'],
  ])('%s renders %s', (url, rendered) => expect(renderUrl(url, render)).toBe(rendered));

  // Finding: event data `..` in a path segment climbed one segment (`/orders/{{ref}}/confirm` with
  // ref ".." reached POST /confirm).
  it.each(['..', '.'])(
    'refuses /orders/{{ref}}/confirm with ref %j: dot segments from templates are refused',
    (ref) => {
      expect(() => renderUrl('https://e.com/orders/{{ref}}/confirm', () => ref)).toThrow(
        expect.objectContaining({ code: 'egress_path_refused' }),
      );
    },
  );

  it.each([
    ['https://e.com/orders/{{ref}}/confirm', '...', 'https://e.com/orders/.../confirm'],
    ['https://e.com/orders/{{ref}}.json', '..', 'https://e.com/orders/...json'],
    ['https://e.com/orders?ref={{ref}}', '..', 'https://e.com/orders?ref=..'],
    ['https://e.com/orders/{{ref}}/confirm', '%2e%2e', 'https://e.com/orders/%252e%252e/confirm'],
    ['https://e.com/a/../b/{{ref}}', 'x', 'https://e.com/a/../b/x'],
  ])('%s with ref %j renders %s (no dot segment added)', (url, ref, rendered) =>
    expect(renderUrl(url, () => ref)).toBe(rendered),
  );

  it.each([
    ['https://erp.example.com/x', 'erp.example.com'],
    ['http://ERP.example.com:8080', 'erp.example.com'],
    ['http://[::1]:80/', '::1'],
    ['https://{{contact.name}}.e.com/', undefined],
    ['https://e.com{{contact.id}}/', undefined],
  ])('the static host of %s is %p', (url, host) => expect(staticHost(url)).toBe(host));
});
