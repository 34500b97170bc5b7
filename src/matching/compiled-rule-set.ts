// A loaded rule set, ready to match: rules indexed by trigger, conditions compiled once.
// Immutable: hot reload builds a new instance and swaps one reference.
import type { Engine, TopLevelCondition } from 'json-rules-engine';
import { contentHash } from '../rules/content-hash';
import type { ConditionTrace, EvaluationFacts, RuleDefinition, RuleEvaluation } from '../rules/rule-types';
import { compileConditions, type CompiledConditions } from './compile-conditions';
import { createEngineWithOperators, TIME_OPERATORS, toTime } from './operators';
import { parseDuration } from '../rules/durations';

interface CompiledRule {
  def: RuleDefinition;
  conditions: CompiledConditions;
}

const NONE: readonly RuleDefinition[] = Object.freeze([]);

export class CompiledRuleSet {
  /** Content hash of the whole set. */
  readonly version: string;
  readonly rules: readonly RuleDefinition[];
  private readonly byId = new Map<string, CompiledRule>();
  private readonly byEvent = new Map<string, CompiledRule[]>();
  private readonly defsByEvent = new Map<string, readonly RuleDefinition[]>();
  private readonly factsByEvent = new Map<string, ReadonlySet<string>>();
  private readonly scheduled: readonly RuleDefinition[];
  private readonly engines = new Map<string, Engine>();

  constructor(rules: readonly RuleDefinition[]) {
    this.rules = Object.freeze([...rules]);
    this.version = contentHash(this.rules.map((r) => [r.id, r.version]).sort());
    const order = new Map(this.rules.map((r, i) => [r.id, i]));
    // Higher priority first; equal priorities keep file order, so runs are deterministic.
    const ranked = [...this.rules].sort(
      (a, b) => b.priority - a.priority || order.get(a.id)! - order.get(b.id)!,
    );
    for (const def of ranked) {
      const compiled: CompiledRule = { def, conditions: compileConditions(def.conditions) };
      this.byId.set(def.id, compiled);
      if (!def.enabled || def.trigger.kind !== 'event') continue;
      for (const kind of def.trigger.events) {
        const list = this.byEvent.get(kind) ?? [];
        list.push(compiled);
        this.byEvent.set(kind, list);
      }
    }
    for (const [kind, list] of this.byEvent) {
      this.defsByEvent.set(kind, Object.freeze(list.map((c) => c.def)));
      const facts = new Set<string>();
      for (const c of list) for (const f of c.conditions.facts) facts.add(f);
      this.factsByEvent.set(kind, facts);
    }
    this.scheduled = Object.freeze(ranked.filter((r) => r.enabled && r.trigger.kind === 'schedule'));
  }

  rule(id: string): RuleDefinition | undefined {
    return this.byId.get(id)?.def;
  }

  /** Enabled rules listening to that kind, highest priority first. */
  rulesForEvent(type: string): readonly RuleDefinition[] {
    return this.defsByEvent.get(type) ?? NONE;
  }

  scheduledRules(): readonly RuleDefinition[] {
    return this.scheduled;
  }

  /** Kinds any enabled rule listens to (what the webhook subscription must ask for). */
  eventKinds(): string[] {
    return [...this.byEvent.keys()].sort();
  }

  /** One evaluation per rule listening to facts.event.type, matched or not, with its trace. */
  async evaluateEvent(facts: EvaluationFacts): Promise<RuleEvaluation[]> {
    const list = this.byEvent.get(facts.event.type);
    return list ? list.map((c) => evaluate(c, facts)) : [];
  }

  /** Any rule, enabled or not, whatever its trigger: for explain, tests and segment sweeps. */
  async evaluateRule(ruleId: string, facts: EvaluationFacts): Promise<RuleEvaluation> {
    const compiled = this.byId.get(ruleId);
    if (!compiled) throw new Error(`unknown rule "${ruleId}"`);
    return evaluate(compiled, facts);
  }

  /** Which facts the rules listening to this kind read, e.g. ['contact','message']. */
  factsNeeded(type: string): Set<string> {
    return new Set(this.factsByEvent.get(type) ?? []);
  }

  /**
   * A standard json-rules-engine Engine holding the enabled rules listening to `type` (built
   * once per kind and set). evaluateEvent does not use it: Engine.run deep-clones every
   * rule's conditions per run and resolves paths with JSONPath, which is what the compiled
   * evaluator avoids (see docs/BENCHMARKS.md). It is the reference the compiled evaluator is
   * tested against, and there for anyone who wants json-rules-engine's own events.
   */
  engineFor(type: string): Engine {
    let engine = this.engines.get(type);
    if (!engine) {
      engine = buildReferenceEngine(this.rulesForEvent(type));
      this.engines.set(type, engine);
    }
    return engine;
  }
}

function evaluate(compiled: CompiledRule, facts: EvaluationFacts): RuleEvaluation {
  const trace: ConditionTrace[] = [];
  const matched = compiled.conditions.evaluate(facts, trace);
  const { def } = compiled;
  return {
    ruleId: def.id,
    ruleVersion: def.version,
    matched,
    trace,
    actions: matched ? def.actions : [],
    mode: def.mode,
  };
}

/** Facts: `event`, `contact`, `message`, `now` given to run(); `cutoff` computed from `now`. */
export function buildReferenceEngine(rules: readonly RuleDefinition[]): Engine {
  const engine = createEngineWithOperators();
  engine.addFact('cutoff', async (params, almanac) => {
    const now = toTime(await almanac.factValue('now'));
    return new Date((now ?? Date.now()) - Number(params.ms));
  });
  for (const rule of rules) {
    engine.addRule({
      name: rule.id,
      priority: 1,
      conditions: toEngineConditions(rule.conditions ?? { all: [] }) as unknown as TopLevelCondition,
      event: { type: 'rule-matched', params: { ruleId: rule.id } },
    });
  }
  return engine;
}

/** Time operators take a duration; json-rules-engine operators see only (fact, value), so the value becomes the cutoff fact. */
function toEngineConditions(node: Record<string, unknown>): Record<string, unknown> {
  for (const kind of ['all', 'any'] as const) {
    if (Array.isArray(node[kind]))
      return { [kind]: (node[kind] as Record<string, unknown>[]).map(toEngineConditions) };
  }
  if (node.not && typeof node.not === 'object')
    return { not: toEngineConditions(node.not as Record<string, unknown>) };
  const base = String(node.operator).split(':').pop()!;
  if (TIME_OPERATORS.has(base))
    return { ...node, value: { fact: 'cutoff', params: { ms: parseDuration(node.value) } } };
  return { ...node };
}
