// Change operators, compiled evaluation vs json-rules-engine's Engine (reference-engine.ts, where
// a change leaf is the computed `change` fact): the same decisions and the same leaf results for
// every combination of previous state and contact, the no-previous-state rule included.
import type { Engine, RuleResult } from 'json-rules-engine';
import { loadRulesFromFiles } from '../rules/format/load-rules';
import type { EvaluationFacts, NameResolver } from '../rules/format/rule-types';

const QUALIFIED = '5a000000-0000-4000-8000-000000000002';
const NEW_LEAD = '5a000000-0000-4000-8000-000000000001';
const names: NameResolver = (kind, name) =>
  kind === 'stage' && name === 'Qualified' ? QUALIFIED : undefined;
const vip = { id: 't-vip', name: 'vip' };

const RULES = `
rule: to-qualified
on: contact.updated
if:
  all:
    - { fact: contact.stageId, operator: changedTo, value: Qualified }
    - { fact: contact.isBlocked, operator: equal, value: false }
do: [{ add-tag: customer }]
---
rule: vip-or-unblocked
on: contact.updated
if:
  all:
    - any:
        - { fact: contact.tags, operator: added, value: vip }
        - { fact: contact.isBlocked, operator: changedFrom, value: true }
    - not: { fact: contact.stageId, operator: changedFrom, value: Qualified }
do: [{ add-tag: customer }]
---
rule: not-removed
on: contact.updated
if: { fact: contact.tags, operator: not:removed, value: vip }
do: [{ add-tag: customer }]
`;

const states = [
  { stageId: NEW_LEAD, isBlocked: false, tags: [] },
  { stageId: QUALIFIED, isBlocked: false, tags: [vip] },
  { stageId: QUALIFIED, isBlocked: true, tags: [] },
];
const previous: EvaluationFacts['previous'][] = [
  ...states.map((contact) => ({ contact })),
  { missing: 'first sight of the contact' },
];

type ResultTree = Record<string, unknown> & { result?: boolean };

function leafResults(node: ResultTree, at: string, out: Map<string, unknown>): void {
  const join = (seg: string) => (at ? `${at}.${seg}` : seg);
  for (const kind of ['all', 'any'] as const)
    if (Array.isArray(node[kind]))
      return (node[kind] as ResultTree[]).forEach((c, i) => leafResults(c, join(`${kind}[${i}]`), out));
  if (node.not) return leafResults(node.not as ResultTree, join('not'), out);
  out.set(at, node.result);
}

describe('change operators: compiled evaluation vs json-rules-engine', () => {
  const set = loadRulesFromFiles([{ path: 'rules/c.yaml', text: RULES }]).ruleSet!;
  let engine: Engine;
  beforeAll(() => {
    engine = set.engineFor('contact.updated');
  });
  const inputs = previous.flatMap((before) => states.map((contact) => ({ before, contact })));

  it.each(inputs.map((input, i) => [i, input]))('agrees on input %i', async (_i, { before, contact }) => {
    const facts: EvaluationFacts = {
      event: { type: 'contact.updated', data: contact },
      contact,
      now: new Date('2026-01-01T00:00:00Z'),
      previous: before,
      names,
    };
    const ours = await set.evaluateEvent(facts);
    expect(set.matchingRules(facts).map((r) => r.id)).toEqual(
      ours.filter((e) => e.matched).map((e) => e.ruleId),
    );
    const theirs = await engine.run({
      event: facts.event,
      contact,
      now: facts.now,
      previous: before,
      names: { resolve: names },
    });
    const byName = new Map<string, RuleResult>(
      [...theirs.results, ...theirs.failureResults].map((r) => [r.name, r]),
    );
    for (const evaluation of ours) {
      const reference = byName.get(evaluation.ruleId)!;
      expect([evaluation.ruleId, evaluation.matched]).toEqual([evaluation.ruleId, reference.result]);
      const expected = new Map<string, unknown>();
      leafResults(reference.conditions as unknown as ResultTree, '', expected);
      for (const t of evaluation.trace)
        expect([evaluation.ruleId, t.at, t.result]).toEqual([evaluation.ruleId, t.at, expected.get(t.at)]);
    }
  });

  it('matches something: the inputs exercise both outcomes', async () => {
    const matched = new Set<boolean>();
    for (const { before, contact } of inputs) {
      const facts: EvaluationFacts = {
        event: { type: 'contact.updated', data: contact },
        contact,
        now: new Date(),
        previous: before,
        names,
      };
      for (const e of await set.evaluateEvent(facts)) matched.add(e.matched);
    }
    expect([...matched].sort()).toEqual([false, true]);
  });
});
