// Issue 33, goal 1: the policy's suppressions hold in forecast and diff as in the engine and rule
// tests (one decision, judge-message.ts): a contact tagged opted-out gets no marketing message and
// still its service one; forecast and diff say `suppressed`.
import { loadRulesFromFiles } from '../../language/rules/format/load-rules';
import { runRuleTests } from '../../language/rules/testing/rule-tests';
import { SNAPSHOT_FORMAT } from '../../language/crm-terms/crm-snapshot';
import { contact } from '../../language/segment-filters/segment-filter.spec-support';
import { forecast } from './forecast';
import type { RecordedEvent } from './recorded-events';
import { diffRuleSets } from './rule-diff';
import { SnapshotDirectory } from './snapshot-directory';

const POLICY = `default-category: service
categories: { service: {}, marketing: {} }
suppress: [{ tag: opted-out, categories: [marketing] }]
`;
const NOW = '2026-11-02T10:00:00Z';
const OPTED_OUT = [{ id: 't1', name: 'opted-out', color: '' }];
const segmentRule = (id: string, category: string) =>
  [
    `rule: ${id}`,
    `category: ${category}`,
    'on:',
    "  schedule: '0 10 * * *'",
    '  segment: { name: Active, filters: { status: active } }',
    'when: every-run',
    'do:',
    `  - send-message: ${id}`,
    '',
  ].join('\n');
const eventRule = (id: string, category: string) =>
  `rule: ${id}\ncategory: ${category}\non: contact.created\ndo:\n  - send-message: ${id}\n`;

function setOf(files: Record<string, string>) {
  const loaded = loadRulesFromFiles(Object.entries(files).map(([path, text]) => ({ path, text })));
  if (!loaded.ruleSet) throw new Error(JSON.stringify(loaded.problems));
  return loaded.ruleSet;
}

describe('suppression offline', () => {
  it('forecast: the opted-out member is suppressed for marketing, not for service', async () => {
    const set = setOf({
      'p.yaml': segmentRule('promo', 'marketing'),
      'r.yaml': segmentRule('receipt', 'service'),
      'policy.yaml': POLICY,
    });
    const f = await forecast({
      rules: set.rules,
      contacts: [
        contact({
          id: 'c1',
          name: 'Out',
          assigneeId: 'm1',
          tags: OPTED_OUT,
          tagIds: ['t1'],
          customFields: {},
        }),
        contact({ id: 'c2', name: 'In', assigneeId: 'm1', customFields: {} }),
      ],
      directory: new SnapshotDirectory({
        format: SNAPSHOT_FORMAT,
        takenAt: NOW,
        source: 'test',
        tags: [{ id: 't1', name: 'opted-out' }],
        stages: [],
        channels: [],
        members: [],
        customFields: [],
        templates: [],
      }),
      now: new Date(NOW),
      budget: { limit: 300, windowMs: 60_000, bulkMinShare: 0.2 },
      eventCallsPerMinute: 0,
      policy: set.policy,
    });
    expect(f.rules.map((r) => [r.rule, r.actions[0].sent, r.actions[0].skipped])).toEqual([
      ['promo', 1, { suppressed: 1 }],
      ['receipt', 2, {}],
    ]);
  });

  it('diff: adding the suppression shows the opted-out contact losing the marketing message', async () => {
    const rules = { 'p.yaml': eventRule('promo', 'marketing'), 'r.yaml': eventRule('receipt', 'service') };
    const base = setOf({ ...rules, 'policy.yaml': POLICY.replace(/suppress:.*\n/, '') });
    const head = setOf({ ...rules, 'policy.yaml': POLICY });
    const events: RecordedEvent[] = [
      {
        id: 'e1',
        type: 'contact.created',
        createdAt: NOW,
        data: { id: 'c1', name: 'Out', tags: OPTED_OUT },
        contactId: 'c1',
      },
      {
        id: 'e2',
        type: 'contact.created',
        createdAt: NOW,
        data: { id: 'c2', name: 'In', tags: [] },
        contactId: 'c2',
      },
    ];
    const diff = await diffRuleSets(base.rules, head.rules, events, 5, undefined, {
      base: base.policy,
      head: head.policy,
    });
    expect(diff.rules.map((r) => [r.rule, r.lostContacts, r.lost.examples[0]?.actions])).toEqual([
      ['promo', ['c1'], ['send-message "promo" (now skipped: suppressed)']],
    ]);
  });

  it('crm-rules test: the same contact, the same answer', async () => {
    const set = setOf({
      'p.yaml': eventRule('promo', 'marketing'),
      'r.yaml': eventRule('receipt', 'service'),
      'policy.yaml': POLICY,
    });
    const text = [
      'tests:',
      '  - name: opted out',
      `    now: "${NOW}"`,
      '    contact: { id: c1, name: Out, isBlocked: false, assigneeId: m1, tags: [{ id: t1, name: opted-out }] }',
      '    event: { type: contact.created }',
      '    expect: [{ send-message: promo, skipped: suppressed }, { send-message: receipt }]',
      '',
    ].join('\n');
    const report = await runRuleTests(set, [{ path: 't.test.yaml', text }]);
    expect(report.results.map((r) => [r.passed, r.details])).toEqual([[true, []]]);
  });
});
