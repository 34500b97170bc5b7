// `on-failure:` of a `call:` (issue 34, goal 1 with goal 4): taken when any action of the expanded
// list ends failed or dead; the rest of the list is skipped, then the run goes on.
import { runRuleTests } from '../testing/rule-tests';
import { armNotTaken, failureBranchOf } from '../gates/branch-plan';
import { loadRulesFromFiles } from './load-rules';

const LIST = `steps: erp-handoff
do:
  - add-tag: handing-off
  - http-request:
      name: erp
      method: POST
      url: https://erp.example.com/contacts
      body: { id: '{{contact.id}}' }
    on-failure:
      - add-tag: erp-own-fallback
  - http-request:
      name: crm2
      method: POST
      url: https://crm2.example.com/contacts
      body: { id: '{{contact.id}}' }
  - add-tag: handed-off
`;
const RULE = `rule: handoff
on: contact.updated
do:
  - call: erp-handoff
    on-failure:
      - set-field: { key: handoff_error, value: '{{failure.reason}}' }
  - add-tag: done
`;
const load = (rule = RULE) =>
  loadRulesFromFiles([
    { path: 'r/rules.yaml', text: rule },
    { path: 'r/steps/erp.yaml', text: LIST },
  ]);

describe('on-failure of a call', () => {
  it('is a failure branch after the list, covering its actions', () => {
    const { ruleSet, problems } = load();
    expect(problems).toEqual([]);
    const rule = ruleSet!.rule('handoff')!;
    // 0 handing-off, 1 erp, 2 erp-own-fallback, 3 crm2, 4 handed-off, 5 set-field, 6 done
    expect(rule.actions.map((a) => a.type)).toEqual([
      'add-tag',
      'http-request',
      'add-tag',
      'http-request',
      'add-tag',
      'set-field',
      'add-tag',
    ]);
    const call = rule.branches!.findIndex((b) => b.covers);
    expect(rule.branches![call]).toEqual(
      expect.objectContaining({ kind: 'failure', at: 5, covers: { from: 0, to: 5 } }),
    );
    // Which arm a failure takes: the action's own, else the call's.
    expect([0, 1, 2, 3, 4, 5].map((i) => failureBranchOf(rule, i))).toEqual([
      call,
      rule.branches!.findIndex((b) => !b.covers),
      call,
      call,
      call,
      undefined,
    ]);
    // Taken: the list's actions after the failed one are skipped, the arm's and later ones are not.
    const taken = new Map([[call, 0]]);
    expect([4, 5, 6].map((i) => armNotTaken(rule, taken, i)?.arm.label)).toEqual([
      'call',
      undefined,
      undefined,
    ]);
  });

  it('refuses an empty on-failure on a call', () => {
    const { problems } = load(RULE.replace(/ {4}on-failure:\n.*\n/, '    on-failure: []\n'));
    expect(problems.map((p) => p.code)).toContain('empty-arm');
  });

  it.each<[string, number, number, string[]]>([
    ['both succeed: the list, then the rest', 200, 200, ['handing-off', 'handed-off', 'done']],
    ['crm2 refused: the call arm, the list cut short', 200, 404, ['handing-off', 'set-field', 'done']],
    [
      'erp refused: its own arm, the list goes on',
      404,
      200,
      ['handing-off', 'erp-own-fallback', 'handed-off', 'done'],
    ],
  ])('rule tests: %s', async (_, erp, crm2, done) => {
    const { ruleSet } = load();
    const report = await runRuleTests(ruleSet!, [
      {
        path: 'r/rules.test.yaml',
        text: `tests:\n  - name: case\n    event: { type: contact.updated }\n    responses: { erp: { status: ${erp} }, crm2: { status: ${crm2} } }\n    expect: none\n`,
      },
    ]);
    const ran = report.results[0].details.join('\n').split('diff:')[0];
    const shown = [...ran.matchAll(/- (add-tag "([^"]+)"|set-field)/g)].map((m) => m[2] ?? 'set-field');
    expect(shown).toEqual(done);
    if (crm2 === 404) expect(ran).toContain('renders "http_404"');
  });
});
