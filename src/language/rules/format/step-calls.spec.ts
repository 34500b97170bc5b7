// `call:` of a named step list (issue 34, goal 4): expanded at load, each action knowing the step
// list and line it came from; unknown names, wrong params and call cycles refused at their lines.
import { stepsText } from '../../matching/format-timing';
import { loadRulesFromFiles } from './load-rules';

const LIST = `steps: billing-handoff
params: [team]
do:
  - assign: '{{with.team}}'
  - add-tag: billing
  - send-message: 'The {{with.team}} team will answer within 4 hours'
`;
const RULE = `rule: invoice-question
on: contact.created
do:
  - add-tag: invoice
  - call: billing-handoff
    with: { team: Ana Ops }
  - add-tag: handed-off
`;
const load = (rule: string, list = LIST, more: { path: string; text: string }[] = []) =>
  loadRulesFromFiles([
    { path: 'r/rules.yaml', text: rule },
    { path: 'r/steps/billing.yaml', text: list },
    ...more,
  ]);

describe('call: a named step list', () => {
  it('expands in place with its params, each action naming the list file and line', () => {
    const { ruleSet, problems } = load(RULE);
    expect(problems).toEqual([]);
    const rule = ruleSet!.rule('invoice-question')!;
    expect(rule.actions).toEqual([
      expect.objectContaining({ type: 'add-tag', tag: 'invoice' }),
      expect.objectContaining({ type: 'assign', member: 'Ana Ops' }),
      expect.objectContaining({ type: 'add-tag', tag: 'billing' }),
      expect.objectContaining({ type: 'send-message', text: 'The Ana Ops team will answer within 4 hours' }),
      expect.objectContaining({ type: 'add-tag', tag: 'handed-off' }),
    ]);
    expect(rule.actionOrigins).toEqual([
      undefined,
      { call: { name: 'billing-handoff', at: { file: 'r/steps/billing.yaml', line: 4, col: 5 } } },
      { call: { name: 'billing-handoff', at: { file: 'r/steps/billing.yaml', line: 5, col: 5 } } },
      { call: { name: 'billing-handoff', at: { file: 'r/steps/billing.yaml', line: 6, col: 5 } } },
      undefined,
    ]);
    // explain names the list and line of each expanded action.
    expect(stepsText(rule)).toContain('add-tag "billing" [call billing-handoff r/steps/billing.yaml:5]');
    // Later checks point at the call in the rule.
    expect(rule.actionPaths![2]).toEqual(['do', 1]);
  });

  it('refuses an unknown list, a missing or unknown param, an undeclared placeholder', () => {
    expect(load(RULE.replace('call: billing-handoff', 'call: billing-handof')).problems).toEqual([
      expect.objectContaining({ code: 'unknown-step-list', line: 5, col: 11 }),
    ]);
    expect(
      load(RULE.replace('{ team: Ana Ops }', '{ squad: Ana Ops }')).problems.map((p) => [p.code, p.line]),
    ).toEqual([
      ['invalid-call', 5],
      ['invalid-call', 6],
    ]);
    expect(load(RULE, LIST.replace("'{{with.team}}'", "'{{with.tem}}'")).problems).toEqual([
      expect.objectContaining({ code: 'invalid-call', file: 'r/steps/billing.yaml', line: 4 }),
    ]);
  });

  it('reports a problem inside the list at the list file, once for each call', () => {
    const { problems } = load(RULE, LIST.replace('add-tag: billing', 'add-tagg: billing'));
    expect(problems).toEqual([
      expect.objectContaining({ code: 'unknown-action', file: 'r/steps/billing.yaml', line: 5 }),
    ]);
  });

  it('refuses a cycle of lists calling each other, with the lines of each', () => {
    const a = `steps: a\ndo:\n  - add-tag: a\n  - call: b\n`;
    const b = `steps: b\ndo:\n  - call: a\n`;
    const { problems } = load(`rule: r\non: contact.created\ndo:\n  - call: a\n`, a, [
      { path: 'r/steps/b.yaml', text: b },
    ]);
    const cycle = problems.filter((p) => p.code === 'call-cycle');
    expect(cycle.length).toBeGreaterThan(0);
    expect(cycle[0]).toEqual(
      expect.objectContaining({
        file: 'r/steps/b.yaml',
        line: 3,
        message:
          'call cycle: a (r/steps/billing.yaml:1) → b (r/steps/b.yaml:1) → a: a step list cannot call itself',
      }),
    );
  });

  it('a list named twice is a duplicate-id', () => {
    const { problems } = load(RULE, LIST, [{ path: 'r/steps/again.yaml', text: LIST }]);
    expect(problems).toEqual([
      expect.objectContaining({ code: 'duplicate-id', file: 'r/steps/again.yaml', line: 1 }),
    ]);
  });
});
