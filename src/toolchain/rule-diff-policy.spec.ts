// diffRuleSets with a messaging policy on each side: caps counted across every rule that messages,
// quiet hours at each event's time, so a change of policy.yaml alone (or of one rule) shows which
// sends are now capped or held. Table-driven: base files, head files, who loses / gains what.
import { loadRulesFromFiles } from '../language/rules/load-rules';
import type { RecordedEvent } from './recorded-events';
import { diffRuleSets } from './rule-diff';

type Files = Record<string, string>;

function ruleSet(files: Files) {
  const loaded = loadRulesFromFiles(Object.entries(files).map(([path, text]) => ({ path, text })));
  if (!loaded.ruleSet) throw new Error(JSON.stringify(loaded.problems));
  return loaded.ruleSet;
}

const greet = 'rule: greet\non: contact.updated\ndo: [{ send-message: Hello }]\n';
const nudge = 'rule: nudge\non: contact.updated\ndo: [{ send-message: Still there? }, { add-tag: nudged }]\n';
const CAP_1 = 'caps: [{ max: 1, per: 1d }]\n';
const CAP_2 = 'caps: [{ max: 2, per: 1d }]\n';
const QUIET = 'quiet-hours: { from: "21:00", to: "08:00", zone: UTC }\n';

// Ana gets two updates at 10:00 and 10:30 UTC, Bruno one at 22:00 (quiet hours in UTC).
const event = (contact: string, iso: string): RecordedEvent => ({
  id: `e-${contact}-${iso}`,
  type: 'contact.updated',
  createdAt: iso,
  data: { id: contact, name: contact, tags: [] },
  contactId: contact,
});
const EVENTS = [
  event('ana', '2026-11-02T10:00:00Z'),
  event('ana', '2026-11-02T10:30:00Z'),
  event('bruno', '2026-11-02T22:00:00Z'),
];

const cases: [string, Files, Files, { rule: string; change: string; lost: string[]; gained: string[] }[]][] =
  [
    [
      'the same policy and rules: nothing to report',
      { 'g.yaml': greet, 'policy.yaml': CAP_1 },
      { 'g.yaml': greet, 'policy.yaml': CAP_1 },
      [],
    ],
    [
      'a cap lowered in policy.yaml alone: the second message of the day is now capped',
      { 'g.yaml': greet, 'policy.yaml': CAP_2 },
      { 'g.yaml': greet, 'policy.yaml': CAP_1 },
      [
        {
          rule: 'greet',
          change: 'unchanged',
          lost: ['send-message "Hello" (now skipped: policy_cap)'],
          gained: [],
        },
      ],
    ],
    [
      'a policy added with quiet hours: the evening message is deferred',
      { 'g.yaml': greet },
      { 'g.yaml': greet, 'policy.yaml': QUIET },
      [
        {
          rule: 'greet',
          change: 'unchanged',
          lost: ['send-message "Hello"'],
          gained: ['send-message "Hello" (deferred quiet_hours)'],
        },
      ],
    ],
    [
      'a new rule that messages uses up the cap an unchanged rule met',
      { 'g.yaml': greet, 'policy.yaml': CAP_2 },
      { 'g.yaml': greet, 'n.yaml': nudge, 'policy.yaml': CAP_2 },
      [
        // The new rule's messages count toward the cap: greet, unchanged, loses Ana's second one.
        {
          rule: 'greet',
          change: 'unchanged',
          lost: ['send-message "Hello" (now skipped: policy_cap)'],
          gained: [],
        },
        {
          rule: 'nudge',
          change: 'added',
          lost: [],
          gained: ['add-tag "nudged"', 'send-message "Still there?"'],
        },
      ],
    ],
  ];

describe('diffRuleSets with the messaging policy', () => {
  it.each(cases)('%s', async (_name, base, head, want) => {
    const [b, h] = [ruleSet(base), ruleSet(head)];
    const diff = await diffRuleSets(b.rules, h.rules, EVENTS, 10, undefined, {
      base: b.policy,
      head: h.policy,
    });
    const actions = (list: { actions: string[] }[]) => [...new Set(list.flatMap((c) => c.actions))].sort();
    expect(
      diff.rules.map((r) => ({
        rule: r.rule,
        change: r.change,
        lost: actions(r.lost.examples),
        gained: actions(r.gained.examples),
      })),
    ).toEqual(want);
  });

  it('says which policy it replayed', async () => {
    const [b, h] = [
      ruleSet({ 'g.yaml': greet, 'policy.yaml': CAP_2 }),
      ruleSet({ 'g.yaml': greet, 'policy.yaml': CAP_1 }),
    ];
    const policy = (x: typeof b, y: typeof h) =>
      diffRuleSets(x.rules, y.rules, EVENTS, 5, undefined, { base: x.policy, head: y.policy }).then(
        (d) => d.policy,
      );
    expect([
      await policy(b, h),
      await policy(b, b),
      await policy(ruleSet({ 'g.yaml': greet }), ruleSet({ 'g.yaml': greet })),
    ]).toEqual(['changed', 'same', 'none']);
  });
});
