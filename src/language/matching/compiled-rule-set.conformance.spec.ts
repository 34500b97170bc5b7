// The compiled evaluator must decide exactly what json-rules-engine decides for the same rules
// and facts: each rule set can build the reference Engine (engineFor), and both are compared
// rule by rule and condition by condition. The no-trace path must decide the same.
import type { Engine, RuleResult } from 'json-rules-engine';
import { loadRulesFromFiles } from '../rules/format/load-rules';
import type { ConditionTrace, EvaluationFacts } from '../rules/format/rule-types';

const RULES = `
rule: a
on: message.created
if:
  all:
    - { fact: message.isOutgoing, operator: equal, value: false }
    - { fact: message.text, operator: matches, value: "(?i)order|pedido" }
    - any:
        - { fact: contact, operator: hasTag, value: vip }
        - { fact: contact.sourceMethod, operator: in, value: [MSG_API_AD, MSG_API_POST] }
        - not: { fact: contact.assigneeId, operator: exists, value: true }
do: [{ react: "👍" }]
---
rule: b
on: message.created
if:
  any:
    - { fact: contact.createdAt, operator: newerThan, value: 7d }
    - { fact: contact.lastInteractionAt, operator: olderThan, value: 30d }
    - { fact: event.data.type, operator: notIn, value: [text] }
    - { fact: contact.customFields.score, operator: greaterThanInclusive, value: 10 }
do: [{ add-tag: b }]
---
rule: c
on: message.created
if:
  not:
    all:
      - { fact: contact.status, operator: equal, value: archived }
      - { fact: contact.tags, operator: hasAnyTag, value: [gold, silver] }
      - { fact: contact.customFields.langs, operator: someFact:equal, value: pt }
do: [{ add-tag: c }]
---
rule: d
on: message.created
do: [{ add-tag: d }]
---
rule: e
on: message.created
timezone: Europe/Berlin
if:
  any:
    - { fact: message.text, operator: ignoreCase:contains, value: refund }
    - { fact: message.text, operator: startsWith, value: my }
    - { fact: message.text, operator: ignoreCase:endsWith, value: "12" }
    - { fact: message.text, operator: not:ignoreCase:contains, value: order }
    - { fact: contact.customFields.langs, operator: contains, value: en }
    - all:
        - { fact: now.hour, operator: greaterThanInclusive, value: 9 }
        - { fact: now.weekday, operator: in, value: [mon, tue, wed] }
        - { fact: now.date, operator: notEqual, value: "2024-12-25" }
    - { daysSince: contact.createdAt, operator: lessThan, value: 2 }
    - { hoursSince: contact.lastInteractionAt, operator: greaterThan, value: 100 }
do: [{ add-tag: e }]
---
rule: f
on: message.created
if:
  all:
    - { fact: now.hour, operator: lessThan, value: 12 }
    - { minutesSince: contact.createdAt, operator: greaterThan, value: 60 }
    - { fact: message.type, operator: ignoreCase:in, value: [TEXT, Image] }
do: [{ add-tag: f }]
`;

// A Wednesday afternoon in Berlin, and a Saturday night in UTC that is already Sunday in Berlin.
const nows = [new Date('2024-05-01T12:00:00Z'), new Date('2024-05-04T22:30:00Z')];
const contacts = [
  {
    status: 'active',
    sourceMethod: 'MSG_API_AD',
    assigneeId: null,
    tags: [{ id: 't1', name: 'VIP' }],
    createdAt: '2024-04-30T00:00:00Z',
    lastInteractionAt: null,
    customFields: { score: 12, langs: ['pt'] },
  },
  {
    status: 'archived',
    sourceMethod: 'MANUAL',
    assigneeId: 'm1',
    tags: [{ id: 't2', name: 'Gold' }],
    createdAt: '2023-01-01T00:00:00Z',
    lastInteractionAt: '2024-01-01T00:00:00Z',
    customFields: { langs: ['pt', 'en'] },
  },
  {
    status: 'active',
    sourceMethod: 'WIDGET',
    tags: [],
    createdAt: 'not a date',
    customFields: { score: '9' },
  },
  undefined,
];
const messages = [
  { isOutgoing: false, text: 'my ORDER 12', type: 'text' },
  { isOutgoing: true, text: 'pedido', type: 'text' },
  { isOutgoing: false, text: null, type: 'image' },
];

type ResultTree = Record<string, unknown> & { factResult?: unknown; result?: boolean };

/** Leaves of a json-rules-engine result tree, keyed like ConditionTrace.at. */
function leaves(node: ResultTree, at: string, out: Map<string, { actual: unknown; result: unknown }>): void {
  const join = (seg: string) => (at ? `${at}.${seg}` : seg);
  for (const kind of ['all', 'any'] as const) {
    if (Array.isArray(node[kind]))
      return (node[kind] as ResultTree[]).forEach((c, i) => leaves(c, join(`${kind}[${i}]`), out));
  }
  if (node.not) return leaves(node.not as ResultTree, join('not'), out);
  out.set(at, { actual: node.factResult, result: node.result });
}

describe('compiled evaluation vs json-rules-engine', () => {
  const set = loadRulesFromFiles([{ path: 'rules/c.yaml', text: RULES }]).ruleSet!;
  let engine: Engine;
  beforeAll(() => {
    engine = set.engineFor('message.created');
  });

  const inputs = nows.flatMap((now) =>
    contacts.flatMap((contact) => messages.map((message) => ({ contact, message, now }))),
  );

  it.each(inputs.map((input, i) => [i, input]))(
    'agrees on input %i',
    async (_i, { contact, message, now }) => {
      const facts: EvaluationFacts = {
        event: { type: 'message.created', data: message },
        message,
        now,
        ...(contact ? { contact } : {}),
      };
      const ours = await set.evaluateEvent(facts);
      // The no-trace path (offline replay, forecasts) short-circuits all/any: same decisions.
      const untraced = await set.evaluateEvent(facts, { trace: false });
      expect(untraced.map((e) => [e.ruleId, e.matched, e.trace.length])).toEqual(
        ours.map((e) => [e.ruleId, e.matched, 0]),
      );
      expect(set.matchingRules(facts).map((r) => r.id)).toEqual(
        ours.filter((e) => e.matched).map((e) => e.ruleId),
      );
      const theirs = await engine.run({
        event: facts.event,
        contact: facts.contact,
        message: facts.message,
        now: facts.now,
      });
      const byName = new Map<string, RuleResult>(
        [...theirs.results, ...theirs.failureResults].map((r) => [r.name, r]),
      );
      expect(ours.map((e) => e.ruleId).sort()).toEqual([...byName.keys()].sort());
      for (const evaluation of ours) {
        const reference = byName.get(evaluation.ruleId)!;
        expect([evaluation.ruleId, evaluation.matched]).toEqual([evaluation.ruleId, reference.result]);
        const expected = new Map<string, { actual: unknown; result: unknown }>();
        leaves(reference.conditions as unknown as ResultTree, '', expected);
        for (const t of evaluation.trace as ConditionTrace[]) {
          expect([evaluation.ruleId, t.at, t.result]).toEqual([
            evaluation.ruleId,
            t.at,
            expected.get(t.at)?.result,
          ]);
        }
      }
    },
  );
});
