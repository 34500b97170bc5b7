import { loadRulesFromFiles } from '../format/load-rules';
import { runRuleTests } from './rule-tests';

const RULES = `
rule: tag-ads
on: contact.created
if: { fact: contact.sourceMethod, operator: equal, value: MSG_API_AD }
do: [{ add-tag: ad-lead }]
---
rule: quiet
on: { schedule: "0 6 * * *", segment: { filters: { lastInteractionBefore: now-30d } } }
do: [{ add-tag: quiet }]
on-leave: [{ remove-tag: quiet }]
`;
const set = loadRulesFromFiles([{ path: 'r/rules.yaml', text: RULES }]).ruleSet!;
const run = (text: string) => runRuleTests(set, [{ path: 'r/rules.test.yaml', text }]);

const CONTACT = `{ id: 0b6f1f5e-8a6c-4b0e-9a57-1c2f4d7e9a01, name: A, phone: "351912345678", status: active, isBlocked: false, sourceMethod: MSG_API_AD, tags: [], createdAt: "2024-01-01T00:00:00Z", updatedAt: "2024-01-01T00:00:00Z", lastInteractionAt: "2024-03-01T00:00:00Z" }`;

describe('runRuleTests', () => {
  it('passes a case whose actions are the expected ones', async () => {
    const report = await run(
      `tests:\n  - name: ok\n    event: { type: contact.created }\n    contact: ${CONTACT}\n    expect: [{ add-tag: ad-lead }]\n`,
    );
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => [r.name, r.passed, r.pos.line])).toEqual([['ok', true, 2]]);
  });

  it('fails with a diff and the explain trace when the actions differ', async () => {
    const report = await run(
      `tests:\n  - name: wrong\n    event: { type: contact.created, data: { sourceMethod: MANUAL } }\n    expect: [{ add-tag: ad-lead }]\n`,
    );
    const [result] = report.results;
    expect(result.passed).toBe(false);
    expect(result.details).toEqual([
      'expected:',
      '  - add-tag "ad-lead"',
      'actual:',
      '  (none)',
      'diff:',
      '  - add-tag "ad-lead"   (missing)',
      'explain:',
      expect.stringMatching(/^ {2}rule tag-ads @\w+ \(r\/rules\.yaml:2:1\): not matched$/),
      '    ✘ all',
      '      ✘ contact.sourceMethod equal "MSG_API_AD": saw "MANUAL"',
    ]);
  });

  it('tests segment rules by membership now and at the previous run', async () => {
    const report = await run(`defaults:
  now: "2024-05-01T00:00:00Z"
  contact: ${CONTACT}
tests:
  - { name: enters, rule: quiet, expect: [{ add-tag: quiet }] }
  - { name: stays, rule: quiet, was-in-segment: true, expect: none }
  - { name: leaves, rule: quiet, was-in-segment: true, contact: { lastInteractionAt: "2024-04-30T00:00:00Z" }, expect: [{ remove-tag: quiet }] }
  - { name: wrong, rule: quiet, contact: { lastInteractionAt: "2024-04-30T00:00:00Z" }, expect: [{ add-tag: quiet }] }
`);
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => [r.name, r.passed])).toEqual([
      ['enters', true],
      ['stays', true],
      ['leaves', true],
      ['wrong', false],
    ]);
    expect(report.results[3].details).toContain('  rule quiet: the contact is not in the segment');
  });

  it("knows a tag named in a segment filter by the test contact's tags", async () => {
    const vipSet = loadRulesFromFiles([
      {
        path: 'r/vip.yaml',
        text: 'rule: vips\non: { schedule: "0 6 * * *", segment: { filters: { tagIds: [VIP] } } }\ndo: [{ add-tag: seen }]\n',
      },
    ]).ruleSet!;
    const tagged = CONTACT.replace(
      'tags: []',
      'tags: [{ id: 7a000000-0000-4000-8000-000000000002, name: vip }]',
    );
    const report = await runRuleTests(vipSet, [
      {
        path: 'r/vip.test.yaml',
        text: `tests:\n  - { name: tagged, rule: vips, contact: ${tagged}, expect: [{ add-tag: seen }] }\n  - { name: untagged, rule: vips, contact: ${CONTACT}, expect: none }\n`,
      },
    ]);
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => [r.name, r.passed])).toEqual([
      ['tagged', true],
      ['untagged', true],
    ]);
  });

  it('reports problems of the test file at their position, and runs nothing for them', async () => {
    const report = await run(
      `tests:\n  - name: a\n    rule: tag-adz\n    event: { type: contact.created }\n    expect: [{ add-tags: x }]\n  - name: b\n    expect: maybe\n`,
    );
    expect(report.results).toEqual([]);
    expect(report.problems.map((p) => [p.line, p.col, p.code, p.message])).toEqual([
      [3, 11, 'test-file', 'unknown rule "tag-adz" (did you mean "tag-ads"?)'],
      [5, 16, 'test-file', 'unknown action "add-tags" (did you mean "add-tag"?)'],
      [7, 13, 'test-file', 'unknown expectation "maybe" (expected one of: none)'],
    ]);
  });
});
