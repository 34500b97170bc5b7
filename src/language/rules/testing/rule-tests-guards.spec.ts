import { loadRulesFromFiles } from '../format/load-rules';
import { runRuleTests } from './rule-tests';

// Rule tests apply the engine's live guards by default: an action the engine would skip is
// listed with `skipped: <reason>`, and a case that expected it sent fails naming the reason.
// `guards: off` (a case's, or the file's defaults) tests the rule's decision only.
const RULES = `rule: welcome
on: contact.created
do:
  - send-message: Hi
  - add-tag: welcomed
---
rule: welcome-assigned
on: contact.updated
do:
  - send-message: Hi again
    assign-first: Ana Ops
---
rule: dormant
on: { schedule: '0 4 * * *', segment: { name: dormant, filters: { tagIds: [dormant] } } }
do:
  - send-message: We miss you
`;
const set = loadRulesFromFiles([
  { path: 'r/rules.yaml', text: RULES },
  { path: 'r/policy.yaml', text: 'caps: [{ max: 1, per: 1d }]\n' },
]).ruleSet!;

const run = (text: string) => runRuleTests(set, [{ path: 'r/rules.test.yaml', text }]);
const contact = (fields: string) => `{ id: c1, name: A, ${fields} }`;
const welcome = (contactFields: string, expect: string, extra = '') =>
  `  - name: welcome
    rule: welcome
    now: '2026-06-10T12:00:00Z'
    event: { type: contact.created }
    contact: ${contact(contactFields)}
    expect: ${expect}
${extra ? `    ${extra}\n` : ''}`;

describe('rule tests apply the live guards', () => {
  it.each<[string, string]>([
    [
      'no assignee: needs_assignee',
      welcome('assigneeId: null', '[{ send-message: Hi, skipped: needs_assignee }, { add-tag: welcomed }]'),
    ],
    [
      'blocked: contact_blocked',
      welcome(
        'assigneeId: m1, isBlocked: true',
        '[{ send-message: Hi, skipped: contact_blocked }, { add-tag: welcomed }]',
      ),
    ],
    [
      'the cap reached: policy_cap',
      welcome(
        'assigneeId: m1',
        '[{ send-message: Hi, skipped: policy_cap }, { add-tag: welcomed }]',
        'sent-in-period: 1',
      ),
    ],
    [
      'guards off: the plain action',
      welcome('assigneeId: null', '[{ send-message: Hi }, { add-tag: welcomed }]', 'guards: off'),
    ],
    ['assigned: sent', welcome('assigneeId: m1', '[{ send-message: Hi }, { add-tag: welcomed }]')],
    [
      'assign-first assigns, so it is sent',
      `  - name: assign-first
    rule: welcome-assigned
    event: { type: contact.updated }
    contact: ${contact('assigneeId: null')}
    expect: [{ send-message: Hi again, assign-first: Ana Ops }]
`,
    ],
    [
      'a segment rule is guarded too',
      `  - name: dormant, no assignee
    rule: dormant
    contact: ${contact("assigneeId: null, tags: [dormant], createdAt: '2026-01-01T00:00:00Z'")}
    expect: [{ send-message: We miss you, skipped: needs_assignee }]
`,
    ],
  ])('%s', async (_name, cases) => {
    const report = await run(`tests:\n${cases}`);
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => [r.passed, r.details])).toEqual([[true, []]]);
  });

  it('guards: off in the defaults is the whole file', async () => {
    const report = await run(
      `defaults: { guards: off }\ntests:\n${welcome('assigneeId: null', '[{ send-message: Hi }, { add-tag: welcomed }]')}`,
    );
    expect(report.results.map((r) => r.passed)).toEqual([true]);
  });

  it('a case that expected the message sent fails naming the reason, in the diff and the explain', async () => {
    const report = await run(
      `tests:\n${welcome('assigneeId: null', '[{ send-message: Hi }, { add-tag: welcomed }]')}`,
    );
    expect(report.results[0].passed).toBe(false);
    expect(report.results[0].details).toEqual(
      expect.arrayContaining([
        '  - send-message "Hi"   skipped: needs_assignee (contact c1 has no assignee)   (rule welcome)',
        '  - send-message "Hi"   (missing)',
        '  + send-message "Hi"   skipped: needs_assignee (contact c1 has no assignee)   (unexpected, from rule welcome)',
        '  2026-06-10T12:00:00.000Z rule welcome: action 1 skipped: needs_assignee (contact c1 has no assignee)',
      ]),
    );
  });

  it('a case that expected a skip the engine would not make fails too', async () => {
    const report = await run(
      `tests:\n${welcome('assigneeId: m1', '[{ send-message: Hi, skipped: needs_assignee }, { add-tag: welcomed }]')}`,
    );
    expect(report.results[0].passed).toBe(false);
    expect(report.results[0].details).toContain(
      '  - send-message "Hi"   skipped: needs_assignee   (missing)',
    );
  });

  it('refuses a reason the engine never gives, with a hint', async () => {
    const report = await run(
      `tests:\n${welcome('assigneeId: null', '[{ send-message: Hi, skipped: needs_asignee }]')}`,
    );
    expect(report.results).toEqual([]);
    expect(report.problems.map((p) => [p.code, p.line, p.message])).toEqual([
      [
        'test-file',
        7,
        expect.stringMatching(
          /^skipped takes a reason the engine gives \(needs_assignee, .*\), not "needs_asignee" \(did you mean "needs_assignee"\?\)$/,
        ),
      ],
    ]);
  });
});
