// diffRuleSets with a messaging policy on each side: caps counted across every rule that messages,
// quiet hours at each event's time, so a change of policy.yaml alone (or of one rule) shows which
// sends are now capped or held. Table-driven: base files, head files, who loses / gains what.
import { loadRulesFromFiles } from '../../language/rules/format/load-rules';
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

// Ana got a message at 08:00, before the first recorded event (10:00); a cap of 1 a day (head)
// then holds her 10:00 message too. One sent after the first event is the replay's own: dropped.
const priorCases: [string, Record<string, string[]> | undefined, string[], string][] = [
  [
    'no source: caps from zero',
    undefined,
    ['ana@10:30'],
    'prior messages: none known: caps counted from zero',
  ],
  [
    'Ana messaged at 08:00: her 10:00 message is capped too',
    { ana: ['2026-11-02T08:00:00Z'] },
    ['ana@10:00'],
    'prior messages: from prior.ndjson: 1 message(s) to 1 contact(s) counted against the caps',
  ],
  [
    'a message after the first event is not counted (the replay sends it)',
    { ana: ['2026-11-02T10:15:00Z'] },
    ['ana@10:30'],
    'prior messages: from prior.ndjson: 0 message(s) to 0 contact(s) counted against the caps',
  ],
  [
    'Bruno messaged at 08:00: his evening message is capped',
    { bruno: ['2026-11-02T08:00:00Z'] },
    ['ana@10:30', 'bruno@22:00'],
    'prior messages: from prior.ndjson: 1 message(s) to 1 contact(s) counted against the caps',
  ],
];

describe('diffRuleSets counts the prior messages on both sides', () => {
  const [b, h] = [
    ruleSet({ 'g.yaml': greet, 'policy.yaml': CAP_2 }),
    ruleSet({ 'g.yaml': greet, 'policy.yaml': CAP_1 }),
  ];

  it.each(priorCases)('%s', async (_name, sent, lostRuns, line) => {
    const asked: string[][] = [];
    const priorMessages = sent
      ? async (ids: readonly string[]) => {
          asked.push([...ids].sort());
          const byContact = new Map(Object.entries(sent).map(([id, t]) => [id, t.map((x) => new Date(x))]));
          return { source: 'file' as const, from: 'prior.ndjson', byContact };
        }
      : undefined;
    const diff = await diffRuleSets(b.rules, h.rules, EVENTS, 10, undefined, {
      base: b.policy,
      head: h.policy,
      ...(priorMessages ? { priorMessages } : {}),
    });
    const runs = diff.rules.flatMap((r) =>
      r.lost.examples.map((c) => `${c.contactId}@${c.at.slice(11, 16)}`),
    );
    expect(runs).toEqual(lostRuns);
    expect(diff.priorMessages?.text).toBe(line);
    // The contacts of the events asked, once each.
    expect(asked).toEqual(sent ? [['ana', 'bruno']] : []);
  });

  it('asks nothing and says nothing without caps (quiet hours only)', async () => {
    const quiet = ruleSet({ 'g.yaml': greet, 'policy.yaml': QUIET });
    const lookup = jest.fn();
    const diff = await diffRuleSets(quiet.rules, quiet.rules, EVENTS, 5, undefined, {
      base: quiet.policy,
      head: quiet.policy,
      priorMessages: lookup,
    });
    expect(lookup).not.toHaveBeenCalled();
    expect(diff.priorMessages).toBeUndefined();
  });
});
