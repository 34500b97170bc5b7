import { loadRulesFromFiles } from '../rules/format/load-rules';

// policy.yaml's categories and suppression, and rules' `category:` (rule-wide or beside an action).
const POLICY = `caps: [{ max: 1, per: 1d }]
quiet-hours: { from: "21:00", to: "08:00", zone: UTC }
default-category: marketing
categories:
  marketing: {}
  transactional: { caps: [], quiet-hours: none }
  reminders: { caps: [{ max: 2, per: 1d }], over-cap: defer }
suppress:
  - tag: do-not-contact
  - { tag: opted-out, categories: [marketing, reminders] }
  - { field: consent, equals: "no", categories: [marketing] }
`;
const RULES = `rule: receipt
on: contact.updated
category: transactional
do:
  - send-message: Your receipt
  - send-message: And a coupon
    category: marketing
  - add-tag: receipted
`;
const load = (files: Record<string, string>) =>
  loadRulesFromFiles(Object.entries(files).map(([path, text]) => ({ path, text })));

describe('policy categories and suppression', () => {
  it('normalises categories, the default and suppressions', () => {
    const { ruleSet, problems } = load({ 'policy.yaml': POLICY, 'r.yaml': RULES });
    expect(problems).toEqual([]);
    expect(ruleSet!.policy).toMatchObject({
      defaultCategory: 'marketing',
      categories: {
        marketing: {},
        transactional: { caps: [], quietHours: null },
        reminders: { caps: [{ max: 2, per: '1d', perMs: 86_400_000 }], overCap: 'defer' },
      },
      suppress: [
        { name: 'tag do-not-contact', tag: 'do-not-contact' },
        { name: 'tag opted-out', tag: 'opted-out', categories: ['marketing', 'reminders'] },
        { name: 'field consent = "no"', field: 'consent', equals: 'no', categories: ['marketing'] },
      ],
    });
  });

  it("stamps the rule's category on its messages; an action's own wins; other actions get none", () => {
    const { ruleSet } = load({ 'policy.yaml': POLICY, 'r.yaml': RULES });
    expect(ruleSet!.rules[0].actions).toEqual([
      { type: 'send-message', text: 'Your receipt', category: 'transactional' },
      { type: 'send-message', text: 'And a coupon', category: 'marketing' },
      { type: 'add-tag', tag: 'receipted' },
    ]);
  });

  it.each([
    [
      'a suppression naming an unknown category',
      { 'policy.yaml': `categories: { marketing: {} }\nsuppress: [{ tag: x, categories: [promo] }]\n` },
      'unknown-category',
    ],
    [
      'a default category that is not declared',
      { 'policy.yaml': `default-category: promo\ncategories: { marketing: {} }\n` },
      'unknown-category',
    ],
    ['a rule category without a policy', { 'r.yaml': RULES }, 'unknown-category'],
    [
      'category on an action that sends nothing',
      { 'r.yaml': 'rule: a\non: contact.updated\ndo:\n  - add-tag: x\n    category: default\n' },
      'invalid-action',
    ],
    [
      'an unknown category on an on-leave message',
      {
        'policy.yaml': POLICY,
        's.yaml':
          "rule: s\non:\n  schedule: '0 9 * * *'\n  segment: { name: S, filters: { status: active } }\ndo: [{ add-tag: x }]\non-leave:\n  - send-message: bye\n    category: promo\n",
      },
      'unknown-category',
    ],
    [
      'a suppression without a condition',
      { 'policy.yaml': 'suppress: [{ categories: [default] }]\n' },
      'invalid-policy',
    ],
  ])('refuses %s', (_name, files, code) => {
    const { ruleSet, problems } = load(files);
    expect(ruleSet).toBeUndefined();
    expect(problems.map((p) => p.code)).toContain(code);
  });
});

describe('categories of a segment rule', () => {
  it("stamps on-leave messages too, the action's own category first", () => {
    const { ruleSet, problems } = load({
      'policy.yaml': POLICY,
      's.yaml': [
        'rule: lapsed',
        'category: marketing',
        'on:',
        "  schedule: '0 9 * * *'",
        '  segment: { name: Lapsed, filters: { status: active } }',
        'do: [{ send-message: We miss you }]',
        'on-leave:',
        '  - send-message: Welcome back',
        '  - send-message: Your receipt',
        '    category: transactional',
        '',
      ].join('\n'),
    });
    expect(problems).toEqual([]);
    const rule = ruleSet!.rules[0];
    expect(rule.trigger.kind === 'schedule' && rule.trigger.onLeave).toEqual([
      { type: 'send-message', text: 'Welcome back', category: 'marketing' },
      { type: 'send-message', text: 'Your receipt', category: 'transactional' },
    ]);
  });
});
