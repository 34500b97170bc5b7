// sources.yaml and rules on custom.<name>: what the loader accepts and refuses, with positions.
import { loadRulesFromFiles } from './load-rules';
import { buildRuleGraph } from '../../../tooling/toolchain/rule-graph';
import { readPointer } from './custom-sources';
import { runRuleTests } from '../testing/rule-tests';

const SOURCES = `sources:
  - name: shop
    secret: SOURCE_SECRET_SHOP
    event-id: /orderId
    schema:
      type: object
      required: [orderId, phone]
      properties:
        orderId: { type: string }
        phone: { type: string }
        total: { type: number }
        customer: { type: object, properties: { tier: { type: string } } }
    contact: { by: phone, from: /phone }
`;

const rule = (on: string, fact = 'event.data.total') => `rule: r1
on: ${on}
if: { fact: ${fact}, operator: greaterThan, value: 10 }
do:
  - add-tag: big-order
`;

function load(ruleText: string, sourcesText = SOURCES) {
  return loadRulesFromFiles([
    { path: 'rules/sources.yaml', text: sourcesText },
    { path: 'rules/r1.yaml', text: ruleText },
  ]);
}

describe('custom event sources', () => {
  it('loads a rule on a declared source, with the source in the set', () => {
    const result = load(rule('custom.shop'));
    expect(result.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(result.ruleSet?.sources.get('shop')?.secret).toBe('SOURCE_SECRET_SHOP');
    expect(result.ruleSet?.eventKinds()).toEqual(['custom.shop']);
  });

  it('versions the sources with the rules', () => {
    const a = load(rule('custom.shop')).ruleSet!.version;
    const b = load(rule('custom.shop'), SOURCES.replace('SOURCE_SECRET_SHOP', 'SOURCE_SECRET_OTHER')).ruleSet!
      .version;
    expect(a).not.toBe(b);
  });

  it.each([
    ['an unknown source', rule('custom.shoop'), 'unknown-event', 2, 'unknown source "shoop"'],
    [
      'a field the schema does not declare',
      rule('custom.shop', 'event.data.totl'),
      'unknown-fact',
      3,
      '"totl"',
    ],
    ['a nested undeclared field', rule('custom.shop', 'event.data.customer.tir'), 'unknown-fact', 3, '"tir"'],
    ['a malformed custom kind', rule('custom.Shop!'), 'unknown-event', 2, 'custom.<name>'],
  ])('refuses %s', (_what, text, code, line, message) => {
    const errors = load(text).problems.filter((p) => p.severity === 'error');
    expect(errors).toEqual([expect.objectContaining({ file: 'rules/r1.yaml', code, line })]);
    expect(errors[0].message).toContain(message);
  });

  it.each([
    ['a secret value instead of a variable name', SOURCES.replace('SOURCE_SECRET_SHOP', 'sk-live-123'), 3],
    // Source secrets: any engine variable named as a key (the signing secret, NODE_ENV, HOME).
    [
      'a variable without the SOURCE_SECRET_ prefix (NODE_ENV)',
      SOURCES.replace('SOURCE_SECRET_SHOP', 'NODE_ENV'),
      3,
    ],
    [
      'the webhook signing secret as a source key',
      SOURCES.replace('SOURCE_SECRET_SHOP', 'CRM_WEBHOOK_SECRET'),
      3,
    ],
    ['a source declared twice', `${SOURCES}${SOURCES.replace('sources:\n', '')}`, 14],
    ['an invalid payload schema', SOURCES.replace('type: object\n', 'type: objet\n'), 6],
    [
      'a contact by id that should be created',
      SOURCES.replace('by: phone, from: /phone', 'by: id, from: /c, create: true'),
      13,
    ],
  ])('refuses sources.yaml with %s, at its line', (_what, text, line) => {
    const errors = load(rule('custom.shop'), text).problems.filter(
      (p) => p.severity === 'error' && p.file === 'rules/sources.yaml',
    );
    expect(errors[0]).toEqual(expect.objectContaining({ file: 'rules/sources.yaml', line }));
  });

  it.each([
    [{ a: { b: 1 } }, '/a/b', 1],
    [{ 'a/b': 2 }, '/a~1b', 2],
    [{ a: 1 }, '/b', undefined],
    [{ a: null }, '/a/b', undefined],
  ])('reads the JSON pointer of %j at %s', (value, pointer, expected) => {
    expect(readPointer(value, pointer)).toBe(expected);
  });

  it('rule tests give a custom event, its payload under data', async () => {
    const set = load(rule('custom.shop')).ruleSet!;
    const contact = `{ id: 0b6f1f5e-8a6c-4b0e-9a57-1c2f4d7e9a01, name: A, phone: "351912345678", status: active, isBlocked: false, sourceMethod: MANUAL, tags: [], createdAt: "2024-01-01T00:00:00Z", updatedAt: "2024-01-01T00:00:00Z", lastInteractionAt: null }`;
    const report = await runRuleTests(set, [
      {
        path: 'rules/r1.test.yaml',
        text: [
          'tests:',
          '  - name: big',
          `    event: { type: custom.shop, data: { orderId: o1, phone: "1", total: 250 } }`,
          `    contact: ${contact}`,
          '    expect: [{ add-tag: big-order }]',
          '  - name: small',
          `    event: { type: custom.shop, data: { orderId: o2, phone: "1", total: 5 } }`,
          `    contact: ${contact}`,
          '    expect: none',
          '',
        ].join('\n'),
      },
    ]);
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => [r.name, r.passed])).toEqual([
      ['big', true],
      ['small', true],
    ]);
  });

  it('graph shows the custom trigger', () => {
    const graph = buildRuleGraph(load(rule('custom.shop')).loaded!);
    expect(graph.nodes).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'event', label: 'custom.shop' })]),
    );
  });
});
