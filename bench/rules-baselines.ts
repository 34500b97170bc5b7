// The engines the matcher is measured against, each given the same rules and events and each
// answering "which rules matched": json-rules-engine used naively and used well, and GoRules' ZEN
// engine (Rust, through its Node binding) with the rules as one decision table per event kind.
import { ZenEngine, type ZenDecision } from '@gorules/zen-engine';
import type { Engine, TopLevelCondition } from 'json-rules-engine';
import { buildReferenceEngine } from '../src/language/matching/reference-engine';
import { parseFactPath } from '../src/language/matching/fact-path';
import { createEngineWithOperators, TIME_OPERATORS } from '../src/language/matching/operators';
import { parseDuration } from '../src/language/rules/format/durations';
import type { EvaluationFacts, RuleDefinition } from '../src/language/rules/format/rule-types';

export interface Baseline {
  name: string;
  /** Ids of the rules that matched, any order. */
  decide(facts: EvaluationFacts): Promise<string[]>;
}

type Node = Record<string, unknown>;

/** Durations of validated rules always parse. */
function durationMs(value: unknown): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new Error(`not a duration: ${String(value)}`);
  return ms;
}

/** Rules grouped by the event kinds they listen to: what "one engine per kind" is built from. */
function byKind(rules: readonly RuleDefinition[]): Map<string, RuleDefinition[]> {
  const kinds = new Map<string, RuleDefinition[]>();
  for (const rule of rules) {
    if (!rule.enabled || rule.trigger.kind !== 'event') continue;
    for (const kind of rule.trigger.events) kinds.set(kind, [...(kinds.get(kind) ?? []), rule]);
  }
  return kinds;
}

/** The naive way: every rule in one Engine, its trigger as a first condition, JSONPath facts. */
export function naiveEngine(rules: readonly RuleDefinition[]): Baseline {
  const withKind = rules.map((r) => ({
    ...r,
    conditions: {
      all: [
        {
          fact: 'event',
          path: '$.type',
          operator: 'in',
          value: r.trigger.kind === 'event' ? r.trigger.events : [],
        },
        r.conditions ?? { all: [] },
      ],
    },
  }));
  const engine = buildReferenceEngine(withKind);
  return {
    name: 'json-rules-engine, naive (one Engine, 500 rules, JSONPath)',
    decide: async (facts) => (await engine.run({ ...facts })).results.map((r) => r.name),
  };
}

interface FlatFact {
  name: string;
  root: keyof EvaluationFacts;
  segments: (string | number)[];
}

/**
 * json-rules-engine used well: one Engine per event kind (an event meets only its kind's rules),
 * every `fact + path` a flat fact read once per event (no JSONPath), durations resolved to cutoff
 * facts per event rather than by a dynamic fact per condition.
 */
export function perKindEngines(rules: readonly RuleDefinition[]): Baseline {
  const engines = new Map<string, { engine: Engine; flat: FlatFact[]; cutoffs: number[] }>();
  for (const [kind, list] of byKind(rules)) {
    const flat = new Map<string, FlatFact>();
    const cutoffs = new Set<number>();
    const engine = createEngineWithOperators();
    for (const rule of list) {
      const conditions = flatten(rule.conditions ?? { all: [] }, flat, cutoffs);
      engine.addRule({
        name: rule.id,
        conditions: conditions as unknown as TopLevelCondition,
        event: { type: 'm' },
      });
    }
    engines.set(kind, { engine, flat: [...flat.values()], cutoffs: [...cutoffs] });
  }
  return {
    name: 'json-rules-engine, used well (Engine per kind, flat facts)',
    decide: async (facts) => {
      const e = engines.get(facts.event.type);
      if (!e) return [];
      const values: Record<string, unknown> = {};
      for (const f of e.flat) values[f.name] = read(facts[f.root], f.segments);
      for (const ms of e.cutoffs) values[`cutoff ${ms}`] = new Date(facts.now.getTime() - ms);
      return (await e.engine.run(values)).results.map((r) => r.name);
    },
  };
}

function read(value: unknown, segments: readonly (string | number)[]): unknown {
  let v = value;
  for (const s of segments) {
    if (v === null || typeof v !== 'object') return v; // json-rules-engine's rule: paths apply to objects only
    v = (v as Record<string | number, unknown>)[s];
  }
  return v;
}

function flatten(node: Node, flat: Map<string, FlatFact>, cutoffs: Set<number>): Node {
  for (const kind of ['all', 'any'] as const) {
    if (Array.isArray(node[kind]))
      return { [kind]: (node[kind] as Node[]).map((c) => flatten(c, flat, cutoffs)) };
  }
  if (node.not && typeof node.not === 'object') return { not: flatten(node.not as Node, flat, cutoffs) };
  const root = String(node.fact) as keyof EvaluationFacts;
  const path = typeof node.path === 'string' ? node.path : '';
  const name = `${root}${path.slice(1)}`;
  flat.set(name, { name, root, segments: path ? parseFactPath(path)! : [] });
  let value = node.value;
  if (TIME_OPERATORS.has(String(node.operator).split(':').pop()!)) {
    const ms = durationMs(node.value);
    cutoffs.add(ms);
    value = { fact: `cutoff ${ms}` };
  }
  return { fact: name, operator: node.operator, value };
}

/**
 * GoRules ZEN: per event kind, one decision graph whose decision table (hit policy "collect")
 * has a row per rule: the rule's conditions as one ZEN expression, the rule id as output.
 */
export function zenDecisions(rules: readonly RuleDefinition[]): Baseline & { dispose(): void } {
  const zen = new ZenEngine();
  const decisions = new Map<string, ZenDecision>();
  for (const [kind, list] of byKind(rules)) decisions.set(kind, zen.createDecision(decisionGraph(list)));
  return {
    name: 'GoRules ZEN engine (decision table per kind)',
    decide: async (facts) => {
      const decision = decisions.get(facts.event.type);
      if (!decision) return [];
      const context = { ...facts, now: facts.now.toISOString() };
      const { result } = await decision.evaluate(context);
      return (result as { rule: string }[]).map((r) => r.rule);
    },
    dispose: () => zen.dispose(),
  };
}

function decisionGraph(rules: readonly RuleDefinition[]): object {
  const position = { x: 0, y: 0 };
  return {
    nodes: [
      { id: 'in', type: 'inputNode', name: 'facts', position },
      {
        id: 'rules',
        type: 'decisionTableNode',
        name: 'rules',
        position,
        content: {
          hitPolicy: 'collect',
          inputs: [{ id: 'when', name: 'conditions' }],
          outputs: [{ id: 'rule', name: 'rule', field: 'rule' }],
          rules: rules.map((r) => ({
            _id: r.id,
            when: r.conditions ? zenExpression(r.conditions) : 'true',
            rule: zenString(r.id),
          })),
        },
      },
      { id: 'out', type: 'outputNode', name: 'matched', position },
    ],
    edges: [
      { id: 'a', sourceId: 'in', targetId: 'rules', type: 'edge' },
      { id: 'b', sourceId: 'rules', targetId: 'out', type: 'edge' },
    ],
  };
}

/** ZEN string literals take no escapes: quote with whichever quote the text does not hold. */
function zenString(text: string): string {
  if (!text.includes('"')) return `"${text}"`;
  if (!text.includes("'")) return `'${text}'`;
  throw new Error(`cannot write ${text} as a ZEN string`);
}

function zenValue(value: unknown): string {
  if (typeof value === 'string') return zenString(value);
  if (Array.isArray(value)) return `[${value.map(zenValue).join(', ')}]`;
  return JSON.stringify(value);
}

function zenPath(node: Node): string {
  const segments = typeof node.path === 'string' ? parseFactPath(node.path)! : [];
  return [String(node.fact), ...segments.map((s) => (typeof s === 'number' ? `[${s}]` : `[${zenString(s)}]`))]
    .join('')
    .replace(/\[["']([A-Za-z_]\w*)["']\]/g, '.$1');
}

function zenExpression(node: Node): string {
  for (const [kind, joiner] of [
    ['all', ' and '],
    ['any', ' or '],
  ] as const) {
    const children = node[kind];
    if (Array.isArray(children))
      return children.length ? `(${(children as Node[]).map(zenExpression).join(joiner)})` : 'true';
  }
  if (node.not && typeof node.not === 'object') return `not(${zenExpression(node.not as Node)})`;
  const operator = String(node.operator);
  const negated = operator.startsWith('not:');
  const test = zenLeaf(operator.replace(/^not:/, ''), zenPath(node), node.value);
  return negated ? `not(${test})` : test;
}

function zenLeaf(operator: string, x: string, value: unknown): string {
  switch (operator) {
    case 'equal':
      return `${x} == ${zenValue(value)}`;
    case 'notEqual':
      return `${x} != ${zenValue(value)}`;
    case 'in':
      return `${x} in ${zenValue(value)}`;
    case 'greaterThan':
      return `${x} > ${zenValue(value)}`;
    case 'exists':
      return value === true ? `${x} != null` : `${x} == null`;
    case 'matches': // like the matcher, a fact that is not a string does not match
      return `(type(${x}) == "string" and matches(${x}, ${zenString(String(value))}))`;
    case 'hasTag': {
      const tag = zenString(String(value));
      return `some(${x}.tags ?? [], #.id == ${tag} or lower(#.name) == lower(${tag}))`;
    }
    case 'newerThan':
      return `(${x} != null and date(${x}) > date(now) - ${durationMs(value) / 1000})`;
    default:
      throw new Error(`no ZEN translation for operator ${operator}`);
  }
}
