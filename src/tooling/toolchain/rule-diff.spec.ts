// diffRuleSets: per changed rule, who loses and gains which actions over recorded events, with
// each side's once/at-most/cooldown. Table-driven: base rules, head rules, who loses, who gains.
import { loadRulesFromFiles } from '../../language/rules/format/load-rules';
import type { RuleDefinition } from '../../language/rules/format/rule-types';
import type { RecordedEvent } from './recorded-events';
import { diffRuleSets } from './rule-diff';

function rules(yaml: string): RuleDefinition[] {
  if (!yaml) return [];
  const loaded = loadRulesFromFiles([{ path: 'r.yaml', text: yaml }]);
  if (!loaded.ruleSet) throw new Error(JSON.stringify(loaded.problems));
  return [...loaded.ruleSet.rules];
}

const rule = (over: { if?: string; do?: string; extra?: string } = {}) =>
  [
    'rule: r',
    'on: contact.updated',
    over.extra ?? '',
    'if:',
    '  all:',
    '    - { fact: contact.isBlocked, operator: equal, value: false }',
    over.if ?? '',
    `do: [${over.do ?? '{ add-tag: vip }'}]`,
    '',
  ]
    .filter((l) => l !== '')
    .join('\n');

const contact = (id: string, name: string, isBlocked = false) => ({ id, name, isBlocked, tags: [] });
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 10, minute)).toISOString();
const updated = (c: ReturnType<typeof contact>, minute: number): RecordedEvent => ({
  id: `e-${c.id}-${minute}`,
  type: 'contact.updated',
  createdAt: at(minute),
  data: c,
  contactId: c.id,
});
const [ana, bruno, carla] = [
  contact('ana', 'Keep Ana'),
  contact('bruno', 'Drop Bruno'),
  contact('carla', 'Carla', true),
];
const EVENTS = [updated(ana, 0), updated(bruno, 1), updated(carla, 2), updated(ana, 90), updated(bruno, 91)];
const KEEP = '    - { fact: contact.name, operator: startsWith, value: Keep }';

const cases: [string, string, string, { lost: string[]; gained: string[]; runs?: [number, number] }][] = [
  [
    'a narrowed condition loses who no longer matches',
    rule(),
    rule({ if: KEEP }),
    { lost: ['bruno'], gained: [], runs: [2, 0] },
  ],
  ['a widened condition gains them', rule({ if: KEEP }), rule(), { lost: [], gained: ['bruno'] }],
  ['a removed rule loses everyone it acted on', rule(), '', { lost: ['ana', 'bruno'], gained: [] }],
  ['an added rule gains everyone it would act on', '', rule(), { lost: [], gained: ['ana', 'bruno'] }],
  [
    'a changed action: the old one lost, the new one gained, on the same events',
    rule(),
    rule({ do: '{ add-tag: gold }' }),
    { lost: ['ana', 'bruno'], gained: ['ana', 'bruno'], runs: [4, 4] },
  ],
  [
    'once per contact added: the repeat is lost',
    rule(),
    rule({ extra: 'once: per-contact' }),
    { lost: ['ana', 'bruno'], gained: [], runs: [2, 0] },
  ],
  [
    'at most 1 added: the repeat is lost',
    rule(),
    rule({ extra: 'at-most: 1' }),
    { lost: ['ana', 'bruno'], gained: [], runs: [2, 0] },
  ],
  [
    'a cooldown longer than the gap: the repeat is lost',
    rule(),
    rule({ extra: 'cooldown: 2h' }),
    { lost: ['ana', 'bruno'], gained: [], runs: [2, 0] },
  ],
  [
    'a cooldown shorter than the gap loses nothing',
    rule(),
    rule({ extra: 'cooldown: 30m' }),
    { lost: [], gained: [] },
  ],
  [
    'a branch: only the contacts whose path changed lose and gain, with the arm taken',
    rule(),
    rule({
      do: '{ if: { fact: contact.name, operator: startsWith, value: Keep }, then: [{ add-tag: vip }], else: [{ add-tag: other }] }',
    }),
    { lost: ['bruno'], gained: ['bruno'], runs: [2, 2] },
  ],
  [
    'shadow to live gains every action',
    rule({ extra: 'mode: shadow' }),
    rule(),
    { lost: [], gained: ['ana', 'bruno'] },
  ],
];

describe('diffRuleSets', () => {
  it.each(cases)('%s', async (_name, base, head, want) => {
    const diff = await diffRuleSets(rules(base), rules(head), EVENTS);
    expect(diff.changedRules).toBe(1);
    const [r] = diff.rules;
    expect([r.lostContacts, r.gainedContacts]).toEqual([want.lost, want.gained]);
    if (want.runs) expect([r.lost.runs, r.gained.runs]).toEqual(want.runs);
  });

  it('evaluates nothing and reports nothing when no rule changed', async () => {
    const diff = await diffRuleSets(rules(rule()), rules(rule()), EVENTS);
    expect(diff).toEqual({ events: EVENTS.length, changedRules: 0, policy: 'none', rules: [] });
  });

  it('gives examples with the event that made the difference', async () => {
    const diff = await diffRuleSets(rules(rule()), rules(rule({ if: KEEP })), EVENTS, 1);
    expect(diff.rules[0].lost.examples).toEqual([
      {
        contactId: 'bruno',
        contactName: 'Drop Bruno', // names everywhere (issue 32): as the event carried the contact
        eventId: 'e-bruno-1',
        eventType: 'contact.updated',
        at: at(1),
        actions: ['add-tag "vip"'],
      },
    ]);
  });
});

describe('diffRuleSets with change operators', () => {
  const renamed = (c: ReturnType<typeof contact>, name: string, minute: number): RecordedEvent => ({
    ...updated({ ...c, name }, minute),
  });
  // Ana: seen, then renamed to Keep..., then updated again (no change); Bruno: first seen renamed.
  const events = [
    updated(contact('ana', 'Ana'), 0),
    renamed(ana, 'Keep Ana', 1),
    renamed(ana, 'Keep Ana', 2),
  ];
  const onRename = '    - { fact: contact.name, operator: changed, value: true }';

  it('compares each contact.* event with the contact of its earlier recorded event', async () => {
    const diff = await diffRuleSets(
      rules(rule({ if: KEEP })),
      rules(rule({ if: `${KEEP}\n${onRename}` })),
      events,
    );
    // Base acts on both Keep events; head only on the rename: one run lost, none gained.
    expect([diff.rules[0].lost.runs, diff.rules[0].gained.runs]).toEqual([1, 0]);
    expect(diff.rules[0].lost.examples.map((e) => e.eventId)).toEqual(['e-ana-2']);
  });

  it('uses the previous state the export recorded, and finds none on first sight', async () => {
    const recorded: RecordedEvent[] = [
      { ...renamed(bruno, 'Keep Bruno', 5), previous: { contact: { ...bruno } } },
      renamed(contact('dora', 'Dora'), 'Keep Dora', 6), // first sight: no previous state
    ];
    const diff = await diffRuleSets([], rules(rule({ if: onRename })), recorded);
    expect(diff.rules[0].gainedContacts).toEqual(['bruno']); // not dora
  });
});
