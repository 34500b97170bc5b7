import { loadRulesFromFiles } from '../rules/format/load-rules';
import type { EvaluationFacts } from '../rules/format/rule-types';
import type { CompiledRuleSet } from './compiled-rule-set';

function compile(text: string): CompiledRuleSet {
  const result = loadRulesFromFiles([{ path: 'rules/test.yaml', text }]);
  if (!result.ruleSet)
    throw new Error(result.problems.map((p) => `${p.line}:${p.col} ${p.message}`).join('\n'));
  return result.ruleSet;
}

const NOW = new Date('2024-05-01T12:00:00Z');
const VIP = { id: '6a0e7c1a-58d8-4f7e-9d3c-0b6a3c2e1f00', name: 'VIP', color: '#f00' };

function contactEvent(type: string, contact: Record<string, unknown>): EvaluationFacts {
  return { event: { id: 'e1', type, data: contact }, contact, now: NOW };
}

const RULES = `
rule: low
on: contact.created
do: [{ add-tag: low }]
---
rule: high
on: [contact.created, contact.updated]
priority: 5
if:
  all:
    - { fact: contact.status, operator: equal, value: active }
do: [{ add-tag: high }]
---
rule: off
on: contact.created
enabled: false
do: [{ add-tag: off }]
---
rule: on-message
on: message.created
if:
  any:
    - { fact: message.text, operator: matches, value: "(?i)refund" }
    - { fact: contact, operator: hasTag, value: vip }
do: [{ react: "👀" }]
---
rule: nightly
on: { schedule: "0 3 * * *", segment: { filters: { status: active } } }
do: [{ add-tag: seen }]
`;

describe('CompiledRuleSet', () => {
  const set = compile(RULES);

  it('lists the enabled rules of a kind, highest priority first', () => {
    expect(set.rulesForEvent('contact.created').map((r) => r.id)).toEqual(['high', 'low']);
    expect(set.rulesForEvent('contact.updated').map((r) => r.id)).toEqual(['high']);
    expect(set.rulesForEvent('contact.deleted')).toEqual([]);
  });

  it('knows the event kinds to subscribe to and the scheduled rules', () => {
    expect(set.eventKinds()).toEqual(['contact.created', 'contact.updated', 'message.created']);
    expect(set.scheduledRules().map((r) => r.id)).toEqual(['nightly']);
    expect(set.rule('off')?.enabled).toBe(false);
  });

  it('evaluates only the rules listening to the event kind, matched or not, with their trace', async () => {
    const evaluations = await set.evaluateEvent(
      contactEvent('contact.created', { status: 'archived', tags: [] }),
    );
    expect(evaluations.map((e) => [e.ruleId, e.matched])).toEqual([
      ['high', false],
      ['low', true],
    ]);
    expect(evaluations[0].trace).toEqual([
      {
        fact: 'contact',
        path: '$.status',
        operator: 'equal',
        expected: 'active',
        actual: 'archived',
        result: false,
        at: 'all[0]',
      },
    ]);
    expect(evaluations[0].actions).toEqual([]);
    expect(evaluations[1].actions).toEqual([{ type: 'add-tag', tag: 'low' }]);
    expect(evaluations[1].ruleVersion).toBe(set.rule('low')!.version);
  });

  it('says which facts the rules of a kind read', () => {
    expect([...set.factsNeeded('message.created')].sort()).toEqual(['contact', 'message']);
    expect([...set.factsNeeded('contact.created')]).toEqual(['contact']);
    expect(set.factsNeeded('broadcast.completed').size).toBe(0);
  });

  it('explains every condition of an any, not only the first that passed', async () => {
    const facts: EvaluationFacts = {
      event: { type: 'message.created', data: {} },
      message: { text: 'I want a REFUND' },
      contact: { tags: [VIP] },
      now: NOW,
    };
    const [evaluation] = await set.evaluateEvent(facts);
    expect(evaluation.matched).toBe(true);
    expect(evaluation.trace.map((t) => [t.at, t.result, t.actual])).toEqual([
      ['any[0]', true, 'I want a REFUND'],
      ['any[1]', true, ['VIP']],
    ]);
  });

  it('evaluates a disabled rule on request, and refuses an unknown one', async () => {
    const evaluation = await set.evaluateRule('off', contactEvent('contact.created', {}));
    expect(evaluation.matched).toBe(true);
    await expect(set.evaluateRule('nope', contactEvent('contact.created', {}))).rejects.toThrow(
      'unknown rule "nope"',
    );
  });

  it('gives equal content an equal version and a changed rule a new one', () => {
    expect(compile(RULES).version).toBe(set.version);
    const changed = compile(RULES.replace('add-tag: low', 'add-tag: lower'));
    expect(changed.version).not.toBe(set.version);
    expect(changed.rule('low')!.version).not.toBe(set.rule('low')!.version);
    expect(changed.rule('high')!.version).toBe(set.rule('high')!.version);
  });
});

describe('operators', () => {
  const rule = (cond: string, on = 'contact.updated') =>
    compile(`rule: r\non: ${on}\nif:\n  all:\n    - ${cond}\ndo: [{ add-tag: x }]\n`);
  const matches = async (cond: string, contact: Record<string, unknown>, now = NOW) => {
    const [e] = await rule(cond).evaluateEvent({ ...contactEvent('contact.updated', contact), now });
    return e.matched;
  };

  it('matches text with RE2, case-insensitively with (?i)', async () => {
    const set = rule(
      '{ fact: message.text, operator: matches, value: "(?i)\\\\border\\\\b" }',
      'message.created',
    );
    const run = async (text: unknown) =>
      (
        await set.evaluateEvent({ event: { type: 'message.created', data: {} }, message: { text }, now: NOW })
      )[0].matched;
    expect(await run('Where is my ORDER?')).toBe(true);
    expect(await run('please reorder')).toBe(false);
    expect(await run(null)).toBe(false);
  });

  it('finds tags by name (any case) or by uuid', async () => {
    expect(await matches('{ fact: contact, operator: hasTag, value: vip }', { tags: [VIP] })).toBe(true);
    expect(
      await matches(`{ fact: contact.tags, operator: hasTag, value: "${VIP.id}" }`, { tags: [VIP] }),
    ).toBe(true);
    expect(await matches('{ fact: contact, operator: hasTag, value: vip }', { tags: [] })).toBe(false);
    expect(await matches('{ fact: contact, operator: hasAnyTag, value: [gold, vip] }', { tags: [VIP] })).toBe(
      true,
    );
    expect(await matches('{ fact: contact, operator: not:hasTag, value: vip }', { tags: [VIP] })).toBe(false);
  });

  it('measures olderThan and newerThan from the now fact', async () => {
    const created = { createdAt: '2024-04-29T12:00:00Z' };
    expect(await matches('{ fact: contact.createdAt, operator: olderThan, value: 24h }', created)).toBe(true);
    expect(await matches('{ fact: contact.createdAt, operator: olderThan, value: 3d }', created)).toBe(false);
    expect(await matches('{ fact: contact.createdAt, operator: newerThan, value: 3d }', created)).toBe(true);
    expect(
      await matches(
        '{ fact: contact.createdAt, operator: olderThan, value: 3d }',
        created,
        new Date('2024-05-03T12:00:01Z'),
      ),
    ).toBe(true);
    expect(
      await matches('{ fact: contact.lastInteractionAt, operator: olderThan, value: 1d }', {
        lastInteractionAt: null,
      }),
    ).toBe(false);
  });

  it('records the cutoff of a time operator in the trace', async () => {
    const [e] = await rule('{ fact: contact.createdAt, operator: olderThan, value: 24h }').evaluateEvent(
      contactEvent('contact.updated', { createdAt: '2024-01-01T00:00:00Z' }),
    );
    expect(e.trace[0].note).toBe('cutoff 2024-04-30T12:00:00.000Z');
  });

  it('tells missing or null values apart from present ones with exists', async () => {
    expect(
      await matches('{ fact: contact.assigneeId, operator: exists, value: true }', { assigneeId: null }),
    ).toBe(false);
    expect(await matches('{ fact: contact.assigneeId, operator: exists, value: false }', {})).toBe(true);
    expect(
      await matches('{ fact: contact.assigneeId, operator: exists, value: true }', { assigneeId: VIP.id }),
    ).toBe(true);
  });

  it('supports json-rules-engine decorators', async () => {
    expect(
      await matches('{ fact: contact.sourceMethod, operator: not:in, value: [MANUAL] }', {
        sourceMethod: 'IMPORT',
      }),
    ).toBe(true);
    expect(
      await matches('{ fact: contact.customFields.langs, operator: someFact:equal, value: pt }', {
        customFields: { langs: ['en', 'pt'] },
      }),
    ).toBe(true);
  });
});
