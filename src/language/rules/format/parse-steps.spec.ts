// Waits, windows and limits as the loader normalises them.
import { formatEvaluation } from '../../matching/format-explain';
import { loadRulesFromFiles } from './load-rules';

const load = (text: string) => loadRulesFromFiles([{ path: 'r/a.yaml', text }]);

describe('waits, windows and limits', () => {
  it('keeps action indices and says which action each wait comes before', () => {
    const { ruleSet, problems } = load(`rule: sla
on: message.created
timezone: Europe/Berlin
window: { days: mon-fri, hours: '09:00-18:00' }
limit: { max: 200, per: 1h, over: skip }
at-most: 3
if: { fact: message.isOutgoing, operator: equal, value: false }
do:
  - add-tag: waiting
  - wait: 2h
    unless: { fact: contact.isBlocked, operator: equal, value: true }
    until:
      event: message.created
      where: { fact: message.isOutgoing, operator: equal, value: true }
      same: conversation
  - add-tag: sla-breach
  - { send-message: Sorry for the wait, window: { hours: '08:00-20:00', timezone: UTC, outside: skip } }
`);
    expect(problems).toEqual([]);
    const def = ruleSet!.rule('sla')!;
    expect(def.actions.map((a) => a.type)).toEqual(['add-tag', 'add-tag', 'send-message']);
    expect(def.actionSteps).toEqual([0, 2, 3]);
    expect(def.waits).toEqual([
      {
        beforeAction: 1,
        ms: 7_200_000,
        unless: { all: [{ fact: 'contact', path: '$.isBlocked', operator: 'equal', value: true }] },
        until: {
          events: ['message.created'],
          where: { all: [{ fact: 'message', path: '$.isOutgoing', operator: 'equal', value: true }] },
          sameConversation: true,
        },
      },
    ]);
    expect(def.window).toEqual({
      days: ['mon', 'tue', 'wed', 'thu', 'fri'],
      from: 540,
      to: 1080,
      timezone: 'Europe/Berlin',
      outside: 'wait',
    });
    expect(def.actionWindows).toEqual([
      {
        action: 2,
        window: { days: expect.any(Array), from: 480, to: 1200, timezone: 'UTC', outside: 'skip' },
      },
    ]);
    expect(def.limit).toEqual({ max: 200, perMs: 3_600_000, over: 'skip' });
    expect(def.atMost).toBe(3);
  });

  it('positions action problems at their item in do, past the waits', () => {
    const { problems } = load(`rule: a
on: contact.created
do:
  - wait: 10m
  - react: "👍"
`);
    expect(problems.map((p) => `${p.line}:${p.col} ${p.code}`)).toEqual(['5:5 invalid-action']);
  });

  it('checks unless conditions against the facts of the rule and where against the later event', () => {
    const { problems } = load(`rule: a
on: contact.created
do:
  - wait: 1h
    unless: { fact: message.text, operator: contains, value: hi }
    until: { event: contact.updated, where: { fact: contact.stageID, operator: exists, value: true } }
  - add-tag: x
`);
    expect(problems.map((p) => `${p.line}:${p.col} ${p.code}`)).toEqual([
      '5:21 unavailable-fact',
      '6:53 unknown-fact',
    ]);
  });

  it('shows window, limit, at-most and the waits between actions in explain output', async () => {
    const { ruleSet } = load(`rule: sla
on: message.created
window: { days: mon-fri, hours: '09:00-18:00', timezone: Europe/Berlin, outside: skip }
limit: { max: 200, per: 1h }
at-most: 3
do:
  - add-tag: waiting
  - wait: 2h
    unless: { fact: contact.isBlocked, operator: equal, value: true }
    until: { event: message.created, where: { fact: message.isOutgoing, operator: equal, value: true }, same: conversation }
  - add-tag: sla-breach
`);
    const rule = ruleSet!.rule('sla')!;
    const evaluation = await ruleSet!.evaluateRule('sla', {
      event: { type: 'message.created', data: {} },
      now: new Date('2024-05-06T10:00:00Z'),
    });
    expect(formatEvaluation(rule, evaluation).slice(2)).toEqual([
      '  window: mon,tue,wed,thu,fri 09:00-18:00 Europe/Berlin, outside: skip',
      '  limit: 200 runs per 1h, over: queue',
      '  at most 3 runs per contact',
      '  actions: add-tag "waiting", wait 2h unless contact.isBlocked equal true cancelled by message.created where message.isOutgoing equal true in the same conversation, add-tag "sla-breach"',
    ]);
  });
});
