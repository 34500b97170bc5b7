import { loadRulesFromFiles } from '../format/load-rules';
import { runRuleTests } from './rule-tests';

// A split arm may be a control (`control: true`, no steps): the contacts it draws get nothing, and
// the experiment readout compares the other arms with it.
const RULE = `rule: offer-test
on: contact.created
goal: { fact: contact, operator: hasTag, value: customer }
do:
  - split:
      arms:
        offer: { weight: 90, do: [{ send-message: 20% off this week }] }
        control: { weight: 10, control: true }
`;
const load = (text: string) => loadRulesFromFiles([{ path: 'r.yaml', text }]);

describe('a control arm of a split', () => {
  it('loads as an arm without actions, marked control', () => {
    const { ruleSet, problems } = load(RULE);
    expect(problems).toEqual([]);
    expect(ruleSet!.rules[0].branches![0].arms).toEqual([
      { label: 'arm:offer', from: 0, to: 1, weight: 90 },
      { label: 'arm:control', from: 1, to: 1, weight: 10, control: true },
    ]);
  });

  it('refuses a control arm with steps, and an arm with neither steps nor control', () => {
    const withDo = load(RULE.replace('control: true }', 'control: true, do: [{ add-tag: x }] }'));
    expect(withDo.problems.map((p) => [p.code, p.message])).toEqual([
      ['empty-arm', 'arm control is a control arm: it sends nothing, drop its do'],
    ]);
    const bare = load(RULE.replace('{ weight: 10, control: true }', '{ weight: 10 }'));
    expect(bare.problems.map((p) => p.code)).toEqual(['empty-arm']);
  });

  it('sends nothing to the contacts it draws (rule test, split: control)', async () => {
    const report = await runRuleTests(load(RULE).ruleSet!, [
      {
        path: 'r.test.yaml',
        text: [
          'tests:',
          '  - name: control gets nothing',
          '    split: control',
          '    event: { type: contact.created }',
          '    contact: { id: c1, name: A, isBlocked: false, assigneeId: m1, tags: [] }',
          '    expect: none',
          '  - name: offer gets the offer',
          '    split: offer',
          '    event: { type: contact.created }',
          '    contact: { id: c1, name: A, isBlocked: false, assigneeId: m1, tags: [] }',
          '    expect: [{ send-message: 20% off this week }]',
          '',
        ].join('\n'),
      },
    ]);
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => [r.name, r.passed, r.details])).toEqual([
      ['control gets nothing', true, []],
      ['offer gets the offer', true, []],
    ]);
  });
});
