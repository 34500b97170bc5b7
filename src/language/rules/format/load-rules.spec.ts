import { loadRulesFromDir, loadRulesFromFiles } from './load-rules';
import type { RuleProblem } from './rule-types';

const load = (files: Record<string, string>) =>
  loadRulesFromFiles(Object.entries(files).map(([path, text]) => ({ path, text })));
const brief = (problems: RuleProblem[]) => problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.code}`);

describe('loadRulesFromFiles', () => {
  it('loads several rules per file, as YAML documents or as a list', () => {
    const { ruleSet, problems } = load({
      'r/a.yaml':
        'rule: a\non: contact.created\ndo: [{ add-tag: a }]\n---\nrule: b\non: contact.created\ndo: [block]\n',
      'r/b.yml':
        '- rule: c\n  on: message.created\n  do: [{ react: "👍" }]\n- rule: d\n  on: contact.deleted\n  do: [unblock]\n',
    });
    expect(problems).toEqual([]);
    expect(ruleSet!.rules.map((r) => [r.id, r.source.file, r.source.line, r.source.col])).toEqual([
      ['a', 'r/a.yaml', 1, 1],
      ['b', 'r/a.yaml', 5, 1],
      ['c', 'r/b.yml', 1, 3],
      ['d', 'r/b.yml', 4, 3],
    ]);
  });

  it('ignores rule tests and other files', () => {
    const { ruleSet } = load({
      'r/a.test.yaml': 'tests: nonsense',
      'r/README.md': '# no',
      'r/a.yaml': 'rule: a\non: contact.created\ndo: [block]\n',
    });
    expect(ruleSet!.rules.map((r) => r.id)).toEqual(['a']);
  });

  it('writes facts as json-rules-engine conditions, a single condition wrapped in all', () => {
    const { ruleSet } = load({
      'r/a.yaml':
        'rule: a\non: contact.updated\nif: { fact: contact.customFields.plan-type, operator: equal, value: pro }\ndo: [block]\n',
    });
    expect(ruleSet!.rule('a')!.conditions).toEqual({
      all: [{ fact: 'contact', path: "$.customFields['plan-type']", operator: 'equal', value: 'pro' }],
    });
  });

  it('normalises every action form and the rule options', () => {
    const { ruleSet, problems } = load({
      'r/a.yaml': `rule: a
on: message.created
once: per-contact
priority: 3
mode: shadow
do:
  - add-tag: vip
  - remove-tag: new
  - move-stage: null
  - assign: round-robin
  - { react: "👍", assign-first: Ana Ops }
  - send-message: Hello
  - open-conversation: Main WhatsApp
  - block
  - unblock:
  - create-segment: { name: VIPs, filters: { status: active, channelIds: [3f1c2b4a-9d8e-4f7a-8b6c-5d4e3f2a1b0c] } }
`,
      'r/b.yaml':
        'rule: b\non: contact.created\ncooldown: 24h\nenabled: false\ndo: [{ move-stage: Qualified }]\n',
    });
    expect(problems).toEqual([]);
    const a = ruleSet!.rule('a')!;
    expect(a.actions).toEqual([
      { type: 'add-tag', tag: 'vip' },
      { type: 'remove-tag', tag: 'new' },
      { type: 'move-stage', stage: null },
      { type: 'assign', member: 'round-robin' },
      { type: 'react', emoji: '👍', assignFirst: 'Ana Ops' },
      { type: 'send-message', text: 'Hello' },
      { type: 'open-conversation', channel: 'Main WhatsApp' },
      { type: 'block' },
      { type: 'unblock' },
      {
        type: 'create-segment',
        name: 'VIPs',
        filters: { status: 'active', channelIds: ['3f1c2b4a-9d8e-4f7a-8b6c-5d4e3f2a1b0c'] },
      },
    ]);
    expect([a.once, a.priority, a.mode, a.enabled]).toEqual(['per-contact', 3, 'shadow', true]);
    const b = ruleSet!.rule('b')!;
    expect([b.cooldownMs, b.enabled, b.mode, b.priority]).toEqual([86_400_000, false, 'live', 0]);
  });

  it('builds segment rules with relative dates, when and on-leave', () => {
    const { ruleSet, problems } = load({
      'r/s.yaml': `rule: s
on: { schedule: "*/15 * * * *", timezone: America/Sao_Paulo, segment: { name: Quiet, filters: { lastInteractionBefore: now-30d }, sync: true } }
when: every-run
do: [{ add-tag: quiet }]
on-leave: [{ remove-tag: quiet }]
`,
    });
    expect(problems).toEqual([]);
    expect(ruleSet!.rule('s')!.trigger).toEqual({
      kind: 'schedule',
      cron: '*/15 * * * *',
      timezone: 'America/Sao_Paulo',
      segment: { name: 'Quiet', filters: { lastInteractionBefore: 'now-30d' }, sync: true },
      when: 'every-run',
      onLeave: [{ type: 'remove-tag', tag: 'quiet' }],
    });
  });

  it('reports every problem of every file at once, sorted, and compiles nothing', () => {
    const { ruleSet, problems } = load({
      'r/b.yaml': 'rule: b\non: contact.created\ndo: [{ add-tag: x }, { tag: y }]\n',
      'r/a.yaml':
        'rule: a\non: contact.creatd\nif: { fact: contact.nme, operator: equal, value: x }\ndo: [{ add-tag: x }]\n---\nrule: [oops\n',
    });
    expect(ruleSet).toBeUndefined();
    expect(brief(problems)).toEqual([
      'r/a.yaml:2:5 unknown-event',
      'r/a.yaml:3:13 unknown-fact',
      'r/a.yaml:6:7 yaml-syntax', // the unclosed [, not the end of the file
      'r/b.yaml:3:24 unknown-action',
    ]);
  });

  it('finds positions inside flow mappings, and reports a problem in an anchored condition once, at the anchor', () => {
    const { problems } = load({
      'r/b.yaml': `rule: b
on: contact.created
if:
  all:
    - &stat { fact: contact.stat, operator: equal, value: active }
    - *stat
    - {fact: contact.statuss, operator: equal, value: 1}
do: [block]
`,
    });
    expect(brief(problems)).toEqual(['r/b.yaml:5:21 unknown-fact', 'r/b.yaml:7:14 unknown-fact']);
  });

  it('survives odd documents and still reports each problem once', () => {
    const { problems } = load({
      'r/empty.yaml': '# only a comment\n',
      'r/odd.yaml': `rule: a
on: 5
if: []
do: {add-tag: x}
---
rule: b
on: { schedule: "0 6 * * *", segment: { filters: "x" }, extra: 1 }
if: { fact: contact.status, operator: equal, value: active }
do: [5, null, { add-tag: null }, { create-segment: { name: "" } }]
`,
    });
    expect(problems.map((p) => `${p.line}:${p.col} ${p.code} ${p.message}`)).toEqual([
      '2:5 schema on must be an event kind, a list of event kinds, or a mapping with schedule and segment',
      '3:5 schema if must be a mapping, not a list',
      '4:5 schema do must be a list, not a mapping',
      '7:50 invalid-segment segment filters: Expected object, received string',
      '7:57 schema unknown key "extra" (expected one of: schedule, timezone, segment)',
      '8:1 schema segment rules take no `if`: the segment filters decide who is in',
      '9:6 unknown-action do[0] must be an action, e.g. `add-tag: vip` or `block`',
      '9:9 unknown-action do[1] must be an action, e.g. `add-tag: vip` or `block`',
      '9:26 schema do[2].add-tag must be a string, not null',
      '9:52 schema do[3].create-segment is missing required key "filters"',
      '9:60 invalid-segment segment name: String must contain at least 1 character(s)',
    ]);
  });

  it('points a duplicate id at the first definition', () => {
    const { problems } = load({
      'r/a.yaml': 'rule: a\non: contact.created\ndo: [block]\n',
      'r/b.yaml': '\n\nrule: a\non: contact.created\ndo: [{ add-tag: x }]\n',
    });
    expect(problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.message}`)).toEqual([
      'r/b.yaml:3:7 duplicate rule id "a": already defined at r/a.yaml:1:7',
    ]);
  });

  it('keeps warnings without refusing the set', () => {
    const { ruleSet, problems } = load({
      'r/a.yaml': 'rule: a\non: contact.created\nonce: per-contact\ncooldown: 1h\ndo: [block]\n',
    });
    expect(ruleSet).toBeDefined();
    expect(problems.map((p) => [p.severity, p.code, p.line])).toEqual([['warning', 'redundant', 4]]);
  });
});

describe('conflicts and loops', () => {
  const rule = (id: string, on: string, body: string) => `rule: ${id}\non: ${on}\n${body}\n---\n`;

  it('accepts rules that add and remove a tag when their conditions exclude each other', () => {
    const { problems } = load({
      'r/a.yaml':
        rule(
          'add',
          'contact.updated',
          'if: { fact: contact.status, operator: equal, value: active }\ndo: [{ add-tag: hot }]',
        ) +
        rule(
          'del',
          'contact.updated',
          'if: { fact: contact.status, operator: equal, value: archived }\ndo: [{ remove-tag: hot }]',
        ),
    });
    expect(problems).toEqual([]);
  });

  it('ignores shadow and disabled rules, which never write to the CRM', () => {
    const { problems } = load({
      'r/a.yaml':
        rule('add', 'contact.updated', 'do: [{ add-tag: hot }]') +
        rule('del', 'contact.updated', 'mode: shadow\ndo: [{ remove-tag: hot }]') +
        rule('off', 'contact.updated', 'enabled: false\ndo: [{ remove-tag: hot }]'),
    });
    expect(problems).toEqual([]);
  });

  it('sees no loop in a rule that re-triggers itself with an idempotent write', () => {
    const { problems } = load({
      'r/a.yaml': rule('tagger', 'contact.updated', 'do: [{ add-tag: seen }, { move-stage: Qualified }]'),
    });
    expect(problems).toEqual([]);
  });

  it('sees no loop when the rule makes its own condition false', () => {
    const { problems } = load({
      'r/a.yaml': rule(
        'rr',
        'contact.updated',
        'if: { fact: contact.assigneeId, operator: equal, value: null }\ndo: [{ assign: round-robin }]',
      ),
    });
    expect(problems).toEqual([]);
  });

  it('reports a loop of writes that always change something, with the chain', () => {
    const { problems } = load({ 'r/a.yaml': rule('rr', 'contact.updated', 'do: [{ assign: round-robin }]') });
    expect(problems.map((p) => [p.code, p.line, p.col])).toEqual([['loop', 3, 6]]);
    expect(problems[0].message).toContain('rr (assign "round-robin" -> contact.updated) -> rr');
  });

  it('follows a chain across event kinds', () => {
    const { problems } = load({
      'r/a.yaml':
        rule('answer', 'message.created', 'do: [{ add-tag: talked }]') +
        rule(
          'ping',
          'contact.updated',
          'if: { fact: contact, operator: hasTag, value: talked }\ndo: [{ send-message: hi }]',
        ),
    });
    expect(problems.map((p) => p.code)).toEqual(['loop']);
    expect(problems[0].message).toMatch(
      /^loop: (answer|ping) .* -> (answer|ping): send-message "hi" writes again on every run/,
    );
  });
});

describe('loadRulesFromDir', () => {
  it('loads the example rules of the repository', async () => {
    const { ruleSet, problems } = await loadRulesFromDir('rules');
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(
      ruleSet!.rules
        .filter((r) => r.enabled)
        .map((r) => r.id)
        .sort(),
    ).toEqual([
      'dormant-contacts',
      'tag-ad-leads',
      'tag-new-contacts',
      'thank-for-order',
      'welcome-new-leads',
    ]);
    // The recipes of docs/RECIPES.md live in recipes/, outside the loaded set.
    expect(ruleSet!.rules.filter((r) => !r.enabled)).toEqual([]);
  });

  it('reports a missing directory as a problem', async () => {
    const { ruleSet, problems } = await loadRulesFromDir('no/such/dir');
    expect(ruleSet).toBeUndefined();
    expect(problems).toEqual([
      {
        file: 'no/such/dir',
        line: 1,
        col: 1,
        severity: 'error',
        code: 'io',
        message: 'cannot read rules: directory not found',
      },
    ]);
  });
});
