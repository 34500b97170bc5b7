import { loadRulesFromFiles } from '../format/load-rules';
import { runRuleTests } from './rule-tests';

// `rules: [a, b]` in a rule test: only those rules act, so a case about rules together stays true
// when another rule on the same event is added (a recipe copied into rules/).
const set = loadRulesFromFiles([
  {
    path: 'r.yaml',
    text: [
      'rule: first',
      'on: contact.created',
      'priority: 10',
      'do: [{ add-tag: a }]',
      '---',
      'rule: second',
      'on: contact.created',
      'do: [{ add-tag: b }]',
      '---',
      'rule: added-later',
      'on: contact.created',
      'do: [{ add-tag: c }]',
      '',
    ].join('\n'),
  },
]).ruleSet!;
const CASE = (extra: string) =>
  `tests:\n  - name: together\n${extra}    event: { type: contact.created }\n    contact: { id: c1, name: A, tags: [] }\n    expect: [{ add-tag: a }, { add-tag: b }]\n`;

describe('rule tests with rules: [...]', () => {
  it('runs only the rules named, in run order', async () => {
    const report = await runRuleTests(set, [
      { path: 't.test.yaml', text: CASE('    rules: [first, second]\n') },
    ]);
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => [r.passed, r.details])).toEqual([[true, []]]);
  });

  it('without it the whole set acts (the case sees the rule added later)', async () => {
    const report = await runRuleTests(set, [{ path: 't.test.yaml', text: CASE('') }]);
    expect(report.results[0].passed).toBe(false);
  });

  it.each([
    ['an unknown rule', '    rules: [first, sceond]\n', 'unknown rule "sceond" (did you mean "second"?)'],
    [
      'rule and rules together',
      '    rule: first\n    rules: [first, second]\n',
      'give rule: (one rule) or rules: (several), not both',
    ],
  ])('refuses %s', async (_name, extra, message) => {
    const report = await runRuleTests(set, [{ path: 't.test.yaml', text: CASE(extra) }]);
    expect(report.problems.map((p) => p.message)).toEqual([message]);
  });
});
