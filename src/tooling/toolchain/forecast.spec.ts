// forecast over a small contacts file: each member's run follows its branches (if on the contact,
// split by the engine's hash), actions after a wait say so, and the policy caps count the messages
// contacts already got (prior messages) before the sweep's own.
import { splitArm, splitPoint } from '../../language/rules/gates/branch-plan';
import { loadRulesFromFiles } from '../../language/rules/format/load-rules';
import type { MirroredContact } from '../../language/crm-terms/mirrored-contact';
import { SNAPSHOT_FORMAT } from '../../language/crm-terms/crm-snapshot';
import { forecast, type ForecastInput } from './forecast';
import { formatForecast } from './forecast-format';
import { NO_PRIOR_MESSAGES } from './prior-messages';
import { SnapshotDirectory } from './snapshot-directory';
import { contact } from '../../language/segment-filters/segment-filter.spec-support';

const NOW = new Date('2026-11-02T10:00:00Z');
const directory = new SnapshotDirectory({
  format: SNAPSHOT_FORMAT,
  takenAt: NOW.toISOString(),
  source: 'test',
  tags: ['vip', 'gold', 'a', 'b'].map((name) => ({ id: `tag-${name}`, name })),
  stages: [],
  channels: [],
  members: [],
  customFields: [],
  templates: [],
});

const member = (id: string, tags: string[] = []): MirroredContact =>
  contact({
    id,
    name: id,
    sourceMethod: 'MSG_API_AD',
    assigneeId: 'member-1',
    stageId: null,
    tags: tags.map((name) => ({ id: `tag-${name}`, name, color: '' })),
    tagIds: tags.map((name) => `tag-${name}`),
    customFields: {},
    createdAt: NOW,
    updatedAt: NOW,
    lastInteractionAt: null,
  });
const CONTACTS = [
  member('ana', ['vip']),
  member('bruno'),
  member('carla'),
  ...[1, 2, 3, 4, 5].map((i) => member(`c${i}`)),
];

const segmentRule = (doYaml: string) =>
  [
    'rule: nurture',
    'on:',
    "  schedule: '0 6 * * *'",
    '  segment: { name: Active, filters: { status: active } }',
    'when: every-run',
    'do:',
    doYaml,
    '',
  ].join('\n');

function setOf(files: Record<string, string>) {
  const loaded = loadRulesFromFiles(Object.entries(files).map(([path, text]) => ({ path, text })));
  if (!loaded.ruleSet) throw new Error(JSON.stringify(loaded.problems));
  return loaded.ruleSet;
}

async function run(files: Record<string, string>, over: Partial<ForecastInput> = {}) {
  const set = setOf(files);
  return forecast({
    rules: set.rules,
    contacts: CONTACTS,
    directory,
    now: NOW,
    budget: { limit: 300, windowMs: 60_000, bulkMinShare: 0.2 },
    eventCallsPerMinute: 0,
    ...(set.policy ? { policy: set.policy } : {}),
    ...over,
  });
}

const IF_VIP = [
  '  - if: { fact: contact.tags, operator: hasTag, value: vip }',
  '    then: [{ add-tag: gold }]',
  '    else:',
  '      - send-message: Hi',
  '      - wait: 1d',
  '      - send-message: Again',
].join('\n');

describe('forecast follows branches', () => {
  it('decides an if on each contact and counts the arms and the actions of each', async () => {
    const [r] = (await run({ 'r.yaml': segmentRule(IF_VIP) })).rules;
    expect(r.branches).toEqual([
      {
        branch: 'if at do.0',
        arms: [
          { label: 'then', contacts: 1 },
          { label: 'else', contacts: 7 },
        ],
      },
    ]);
    expect(r.actions.map((a) => [a.arms, a.action, a.sent, a.notTaken ?? 0, a.afterWaitMs ?? 0])).toEqual([
      [['then'], 'add-tag "gold"', 1, 7, 0],
      [['else'], 'send-message "Hi"', 7, 1, 0],
      [['else'], 'send-message "Again"', 7, 1, 86_400_000],
    ]);
    expect(r.calls).toBe(15);
    const text = formatForecast(await run({ 'r.yaml': segmentRule(IF_VIP) }), 'text');
    expect(text).toContain('if at do.0: then 1, else 7');
    expect(text).toContain('[else] send-message "Again" (after 1d): 7 sent, 1 on another arm');
  });

  it.each([
    [
      'after a branch whose arms wait differently: one row per delay passed',
      ['    then: [{ wait: 1d }, { add-tag: gold }]', '    else: [{ add-tag: b }]'],
      [
        [['then'], 'add-tag "gold"', 1, 7, 86_400_000],
        [['else'], 'add-tag "b"', 7, 1, 0],
        [[], 'send-message "Hi"', 7, 0, 0],
        [[], 'send-message "Hi"', 1, 0, 86_400_000],
      ],
      ['  send-message "Hi": 7 sent', '  send-message "Hi" (after 1d): 1 sent'],
    ],
    [
      'both arms wait the same: one row',
      ['    then: [{ wait: 2h }, { add-tag: gold }]', '    else: [{ wait: 2h }, { add-tag: b }]'],
      [
        [['then'], 'add-tag "gold"', 1, 7, 7_200_000],
        [['else'], 'add-tag "b"', 7, 1, 7_200_000],
        [[], 'send-message "Hi"', 8, 0, 7_200_000],
      ],
      ['  send-message "Hi" (after 2h): 8 sent'],
    ],
  ])('%s', async (_name, arms, rows, lines) => {
    const doYaml = [
      '  - if: { fact: contact.tags, operator: hasTag, value: vip }',
      ...arms,
      '  - send-message: Hi',
    ];
    const f = await run({ 'r.yaml': segmentRule(doYaml.join('\n')) });
    const [r] = f.rules;
    expect(r.actions.map((a) => [a.arms, a.action, a.sent, a.notTaken ?? 0, a.afterWaitMs ?? 0])).toEqual(
      rows,
    );
    const text = formatForecast(f, 'text').split('\n');
    for (const line of lines) expect(text).toContain(line);
  });

  it('splits by the hash the engine uses: the same contacts in the same arms', async () => {
    const split = [
      '  - split:',
      '      arms:',
      '        a: { weight: 50, do: [{ add-tag: a }] }',
      '        b: { weight: 50, do: [{ add-tag: b }] }',
    ].join('\n');
    const [r] = (await run({ 'r.yaml': segmentRule(split) })).rules;
    const rule = setOf({ 'r.yaml': segmentRule(split) }).rules[0];
    const arms = rule.branches![0].arms;
    const inA = CONTACTS.filter((c) => splitArm(arms, splitPoint(rule.id, rule.version, c.id)) === 0).length;
    expect(r.branches![0].arms).toEqual([
      { label: 'arm:a', contacts: inA },
      { label: 'arm:b', contacts: CONTACTS.length - inA },
    ]);
    expect(r.actions.map((a) => a.sent)).toEqual([inA, CONTACTS.length - inA]);
  });

  it('takes a wait with on-event / on-timeout to time out, and says so', async () => {
    const outcome = [
      '  - send-message: Question?',
      '  - wait: 2h',
      '    until: { event: message.created }',
      '    on-event: [{ add-tag: a }]',
      '    on-timeout: [{ add-tag: b }]',
    ].join('\n');
    const [r] = (await run({ 'r.yaml': segmentRule(outcome) })).rules;
    expect(r.branches?.[0].arms).toEqual([
      { label: 'on-event', contacts: 0 },
      { label: 'on-timeout', contacts: CONTACTS.length },
    ]);
    expect(r.branches?.[0].note).toMatch(/on-timeout assumed/);
    expect(r.actions.map((a) => [a.sent, a.afterWaitMs ?? 0])).toEqual([
      [8, 0],
      [0, 0],
      [8, 7_200_000],
    ]);
  });
});

describe('forecast counts the messages contacts already got', () => {
  const files = {
    'r.yaml': segmentRule('  - send-message: Hi'),
    'policy.yaml': 'caps: [{ max: 1, per: 1d }]\n',
  };
  const hourAgo = new Date(NOW.getTime() - 3_600_000);

  it.each([
    ['none known: every member gets one', undefined, 8, 'prior messages: none known: caps counted from zero'],
    [
      'from the ledger: two contacts already had their one a day',
      new Map([
        ['ana', [hourAgo]],
        ['bruno', [hourAgo]],
      ]),
      6,
      'prior messages: from the ledger at postgres://db/x: 2 message(s) to 2 contact(s) counted against the caps',
    ],
  ])('%s', async (_name, prior, sent, line) => {
    const asked: string[][] = [];
    const f = await run(files, {
      ...(prior
        ? {
            priorMessages: async (ids) => {
              asked.push([...ids]);
              return { source: 'ledger' as const, from: 'postgres://db/x', byContact: prior };
            },
          }
        : {}),
    });
    expect(f.rules[0].actions[0]).toMatchObject({
      sent,
      ...(sent < 8 ? { skipped: { policy_cap: 8 - sent } } : {}),
    });
    expect(f.priorMessages?.text).toBe(line);
    expect(formatForecast(f, 'text').split('\n')[1]).toBe(line);
    // Asked once, for the members of the rules that message.
    if (prior) expect(asked.map((ids) => ids.length)).toEqual([CONTACTS.length]);
  });

  it('asks nothing when no rule sends a message, and says nothing without a cap', async () => {
    let asked = 0;
    const lookup = async () => (asked++, NO_PRIOR_MESSAGES);
    const tagOnly = await run(
      { ...files, 'r.yaml': segmentRule('  - add-tag: a') },
      { priorMessages: lookup },
    );
    expect(asked).toBe(0);
    expect(tagOnly.priorMessages?.source).toBe('none');
    const quietOnly = await run(
      { ...files, 'policy.yaml': 'quiet-hours: { from: "21:00", to: "08:00" }\n' },
      { priorMessages: lookup },
    );
    expect(quietOnly.priorMessages).toBeUndefined();
    expect(asked).toBe(0);
  });
});
