// Issue 33, "offline tools disagree with the engine": with a cap of one message a day and quiet
// hours 21:00-08:00, three rules messaging one contact at 22:30 send one message at 08:00 and
// record the other two `policy_cap` (the engine: test/language/policy/policy-at-release.e2e-spec.ts). Rule
// tests, forecast and diff must say the same: they judge a deferred message at its release
// (judge-message.ts), never count it as sent at its deferral.
import { loadRulesFromFiles } from '../../language/rules/format/load-rules';
import { runRuleTests } from '../../language/rules/testing/rule-tests';
import { SNAPSHOT_FORMAT } from '../../language/crm-terms/crm-snapshot';
import { contact } from '../../language/segment-filters/segment-filter.spec-support';
import { forecast } from './forecast';
import type { RecordedEvent } from './recorded-events';
import { diffRuleSets } from './rule-diff';
import { SnapshotDirectory } from './snapshot-directory';

const POLICY = 'caps: [{ max: 1, per: 1d }]\nquiet-hours: { from: "21:00", to: "08:00", zone: UTC }\n';
const EVENING = '2026-11-02T22:30:00Z';
const IDS = ['alpha', 'bravo', 'charlie'];
const eventRule = (id: string) => `rule: ${id}\non: contact.created\ndo:\n  - send-message: ${id} says hi\n`;
const segmentRule = (id: string) =>
  [
    `rule: ${id}`,
    'on:',
    "  schedule: '30 22 * * *'",
    '  segment: { name: Active, filters: { status: active } }',
    'when: every-run',
    'do:',
    `  - send-message: ${id} says hi`,
    '',
  ].join('\n');

function setOf(files: Record<string, string>) {
  const loaded = loadRulesFromFiles(Object.entries(files).map(([path, text]) => ({ path, text })));
  if (!loaded.ruleSet) throw new Error(JSON.stringify(loaded.problems));
  return loaded.ruleSet;
}
const rulesOf = (rule: (id: string) => string, policy = true) =>
  setOf({
    ...Object.fromEntries(IDS.map((id) => [`${id}.yaml`, rule(id)])),
    ...(policy ? { 'policy.yaml': POLICY } : {}),
  });

describe('three rules messaging at 22:30 under a cap of 1/day and quiet hours', () => {
  it('crm-rules test: one message at 08:00, two policy_cap', async () => {
    const capped = (id: string) => `{ send-message: ${id} says hi, skipped: policy_cap }`;
    const cases = [
      'tests:',
      '  - name: one message at 08:00',
      `    now: "${EVENING}"`,
      '    contact: { id: c1, name: A, isBlocked: false, assigneeId: m1, tags: [] }',
      '    event: { type: contact.created }',
      '    expect: none',
      '    then:',
      '      - { after: 569m, expect: none }',
      `      - { after: 1m, expect: [{ send-message: alpha says hi }, ${capped('bravo')}, ${capped('charlie')}] }`,
      '      - { after: 1d, expect: none }',
      '',
    ].join('\n');
    const report = await runRuleTests(rulesOf(eventRule), [{ path: 'r/p.test.yaml', text: cases }]);
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => [r.passed, r.details])).toEqual([[true, []]]);
    // The explain trace of a failing copy names the two skips.
    const wrong = cases.replace(/expect: \[\{ send-message: alpha says hi \}.*\] \}/, 'expect: none }');
    const failed = await runRuleTests(rulesOf(eventRule), [{ path: 'r/p.test.yaml', text: wrong }]);
    const skips = failed.results[0].details
      .join('\n')
      .split('\n')
      .filter((l) => /Z rule \w+: action/.test(l) && l.includes('policy_cap'));
    expect(skips).toEqual([
      expect.stringContaining('2026-11-03T08:00:00.000Z rule bravo: action 1 skipped: policy_cap'),
      expect.stringContaining('2026-11-03T08:00:00.000Z rule charlie: action 1 skipped: policy_cap'),
    ]);
  });

  it('crm-rules forecast: one message deferred to 08:00, two policy_cap, one CRM call', async () => {
    const set = rulesOf(segmentRule);
    const now = new Date(EVENING);
    const f = await forecast({
      rules: set.rules,
      contacts: [contact({ id: 'c1', name: 'A', assigneeId: 'm1', customFields: {} })],
      directory: new SnapshotDirectory({
        format: SNAPSHOT_FORMAT,
        takenAt: EVENING,
        source: 'test',
        tags: [],
        stages: [],
        channels: [],
        members: [],
        customFields: [],
        templates: [],
      }),
      now,
      budget: { limit: 300, windowMs: 60_000, bulkMinShare: 0.2 },
      eventCallsPerMinute: 0,
      policy: set.policy,
    });
    expect(
      f.rules.map((r) => [r.rule, r.actions[0].sent, r.actions[0].deferred, r.actions[0].skipped]),
    ).toEqual([
      ['alpha', 0, { quiet_hours: 1 }, {}],
      ['bravo', 0, undefined, { policy_cap: 1 }],
      ['charlie', 0, undefined, { policy_cap: 1 }],
    ]);
    expect(f.rules.reduce((n, r) => n + r.calls, 0)).toBe(1);
  });

  it('crm-rules diff: one message deferred to 08:00, two now skipped: policy_cap', async () => {
    const events: RecordedEvent[] = [
      {
        id: 'e1',
        type: 'contact.created',
        createdAt: EVENING,
        data: { id: 'c1', name: 'A', tags: [] },
        contactId: 'c1',
      },
    ];
    const [base, head] = [rulesOf(eventRule, false), rulesOf(eventRule)];
    const diff = await diffRuleSets(base.rules, head.rules, events, 5, undefined, {
      base: base.policy,
      head: head.policy,
    });
    expect(
      diff.rules.map((r) => [r.rule, r.lost.examples[0]?.actions, r.gained.examples[0]?.actions]),
    ).toEqual([
      ['alpha', ['send-message "alpha says hi"'], ['send-message "alpha says hi" (deferred quiet_hours)']],
      ['bravo', ['send-message "bravo says hi" (now skipped: policy_cap)'], undefined],
      ['charlie', ['send-message "charlie says hi" (now skipped: policy_cap)'], undefined],
    ]);
  });
});
