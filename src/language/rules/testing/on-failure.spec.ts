// `on-failure:` of an action (issue 34, goal 1): a branch right after the action, taken when it
// ends failed or dead, its empty `succeeded` arm otherwise.
import { loadRulesFromFiles } from '../format/load-rules';
import { runRuleTests } from './rule-tests';
import { failureBranchOf } from '../gates/branch-plan';

const RULE = `rule: sync-or-flag
on: contact.updated
do:
  - http-request:
      name: erp
      method: POST
      url: https://erp.example.com/contacts
      body: { id: '{{contact.id}}' }
    on-failure:
      - add-tag: erp-sync-failed
  - add-tag: synced
`;
const load = (text: string) => loadRulesFromFiles([{ path: 'r/rules.yaml', text }]);

describe('on-failure', () => {
  it('parses as a failure branch right after its action, its arm then an empty succeeded arm', () => {
    const { ruleSet, problems } = load(RULE);
    expect(problems).toEqual([]);
    const rule = ruleSet!.rule('sync-or-flag')!;
    expect(rule.actions.map((a) => a.type)).toEqual(['http-request', 'add-tag', 'add-tag']);
    expect(rule.branches).toEqual([
      expect.objectContaining({
        kind: 'failure',
        at: 1,
        end: 2,
        arms: [
          { label: 'on-failure', from: 1, to: 2 },
          { label: 'succeeded', from: 2, to: 2 },
        ],
      }),
    ]);
    expect(failureBranchOf(rule, 0)).toBe(0);
    expect(failureBranchOf(rule, 1)).toBeUndefined();
  });

  it('refuses an empty on-failure', () => {
    const { problems } = load(
      RULE.replace('      - add-tag: erp-sync-failed\n', '      []\n').replace(
        'on-failure:\n      []',
        'on-failure: []',
      ),
    );
    expect(problems.map((p) => p.code)).toContain('empty-arm');
  });

  it.each<[string, number, string[]]>([
    ['a failed request takes on-failure, then the run goes on', 422, ['erp-sync-failed', 'synced']],
    ['a request that succeeds skips it', 200, ['synced']],
  ])('rule tests: %s', async (_, status, tags) => {
    const { ruleSet } = load(RULE);
    const expect_ = ['http-request', ...tags].map((t) =>
      t === 'http-request' ? '' : `      - add-tag: ${t}`,
    );
    const report = await runRuleTests(ruleSet!, [
      {
        path: 'r/rules.test.yaml',
        text: [
          'tests:',
          '  - name: case',
          '    event: { type: contact.updated }',
          `    responses: { erp: { status: ${status} } }`,
          '    expect:',
          "      - http-request: { name: erp, method: POST, url: 'https://erp.example.com/contacts', body: { id: '{{contact.id}}' } }",
          ...expect_.filter(Boolean),
          '',
        ].join('\n'),
      },
    ]);
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => [r.passed, r.details])).toEqual([[true, []]]);
  });

  // failure.reason / failure.class: the mocked status as the engine records it (http_<status>),
  // read by a switch and a template of the arm. `expect: none` fails the case, so its details
  // show what ran and what it rendered.
  it.each<[number, string, string]>([
    [404, 'not-found', 'erp: http_404 (failed)'],
    [503, 'erp-down', 'erp: http_503 (dead)'],
  ])('rule tests: a %s answer gives the arm its reason and class', async (status, tag, text) => {
    const { ruleSet, problems } = load(
      RULE.replace(
        '      - add-tag: erp-sync-failed\n',
        [
          "      - set-field: { key: sync_error, value: 'erp: {{failure.reason}} ({{failure.class}})' }",
          '      - switch:',
          '          cases:',
          '            missing:',
          '              if: { fact: failure.reason, operator: equal, value: http_404 }',
          '              do: [add-tag: not-found]',
          '          default: [add-tag: erp-down]',
          '',
        ].join('\n'),
      ),
    );
    expect(problems).toEqual([]);
    const report = await runRuleTests(ruleSet!, [
      {
        path: 'r/rules.test.yaml',
        text: `tests:\n  - name: case\n    event: { type: contact.updated }\n    responses: { erp: { status: ${status} } }\n    expect: none\n`,
      },
    ]);
    const details = report.results[0].details.join('\n').split('diff:')[0]; // what ran
    expect(details).toContain(`renders "${text}"`);
    expect(details).toContain(`add-tag "${tag}"`);
    expect(details).not.toContain(`add-tag "${tag === 'not-found' ? 'erp-down' : 'not-found'}"`);
  });
});
