// A loaded rule set, ready to match: rules indexed by trigger, conditions compiled once.
// Immutable: hot reload builds a new instance and swaps one reference.
import type { Engine } from 'json-rules-engine';
import { contentHash } from '../rules/format/content-hash';
import { NO_SOURCES, sourcesFingerprint, type CustomSources } from '../rules/format/custom-sources';
import type {
  ConditionTrace,
  EvaluationFacts,
  RuleDefinition,
  RuleEvaluation,
} from '../rules/format/rule-types';
import { compileConditions, type CompiledConditions } from './compile-conditions';
import { changeNamesOf, type ChangeName } from './change-operators';
import { buildReferenceEngine } from './reference-engine';
import type { MessagingPolicy } from '../policy/messaging-policy';

interface CompiledRule {
  def: RuleDefinition;
  conditions: CompiledConditions;
}

const NONE: readonly RuleDefinition[] = Object.freeze([]);

export interface EvaluateOptions {
  /** Record the explain trace (default true). */
  trace?: boolean;
}

export class CompiledRuleSet {
  /** Content hash of the whole set. */
  readonly version: string;
  /** The deployed version it was loaded from (git commit or `dir-<hash>`), set once when installed. */
  commit?: string;
  readonly rules: readonly RuleDefinition[];
  private readonly byId = new Map<string, CompiledRule>();
  private readonly byEvent = new Map<string, CompiledRule[]>();
  private readonly defsByEvent = new Map<string, readonly RuleDefinition[]>();
  private readonly factsByEvent = new Map<string, ReadonlySet<string>>();
  private readonly changeNamesByEvent = new Map<string, readonly ChangeName[]>();
  private readonly scheduled: readonly RuleDefinition[];
  private readonly engines = new Map<string, Engine>();

  /** The messaging policy (policy.yaml), versioned with the rules; undefined: no policy. */
  readonly policy?: MessagingPolicy;

  constructor(
    rules: readonly RuleDefinition[],
    policy?: MessagingPolicy,
    /** Custom event sources of sources.yaml: versioned with the rules they start. */
    readonly sources: CustomSources = NO_SOURCES,
  ) {
    this.rules = Object.freeze([...rules]);
    const ruleVersions = this.rules.map((r) => [r.id, r.version]).sort();
    // A set without sources or policy keeps the version it had before either existed.
    const rulesVersion = contentHash(
      sources.size ? [ruleVersions, sourcesFingerprint(sources)] : ruleVersions,
    );
    this.version = policy ? contentHash([rulesVersion, policy.hash]) : rulesVersion;
    if (policy) this.policy = policy;
    const order = new Map(this.rules.map((r, i) => [r.id, i]));
    // Higher priority first; equal priorities keep file order, so runs are deterministic.
    const ranked = [...this.rules].sort(
      (a, b) => b.priority - a.priority || order.get(a.id)! - order.get(b.id)!,
    );
    for (const def of ranked) {
      const compiled: CompiledRule = { def, conditions: compileConditions(def.conditions, def.timezone) };
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
      if (facts.has('previous'))
        this.changeNamesByEvent.set(
          kind,
          list.reduce((names, c) => changeNamesOf(c.def.conditions, names), [] as ChangeName[]),
        );
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

  /**
   * One evaluation per rule listening to facts.event.type, matched or not, with its trace.
   * `trace: false` (offline replay and forecasts, which store nothing) leaves the trace empty and
   * stops each all/any at its first deciding condition: same outcome, a fraction of the work.
   * The runtime keeps the default: every run stores its trace.
   */
  async evaluateEvent(facts: EvaluationFacts, options: EvaluateOptions = {}): Promise<RuleEvaluation[]> {
    const list = this.byEvent.get(facts.event.type);
    const trace = options.trace !== false;
    return list ? list.map((c) => evaluate(c, facts, trace)) : [];
  }

  /**
   * The enabled rules listening to facts.event.type whose conditions hold, highest priority
   * first, decided without a trace and without an evaluation object per rule: what an offline
   * replay of many events needs (same decisions as evaluateEvent, see the conformance spec).
   */
  matchingRules(facts: EvaluationFacts): RuleDefinition[] {
    const list = this.byEvent.get(facts.event.type);
    const out: RuleDefinition[] = [];
    if (list) for (const c of list) if (c.conditions.evaluate(facts, null)) out.push(c.def);
    return out;
  }

  /** Any rule, enabled or not, whatever its trigger: for explain, tests and segment sweeps. */
  async evaluateRule(ruleId: string, facts: EvaluationFacts): Promise<RuleEvaluation> {
    const compiled = this.byId.get(ruleId);
    if (!compiled) throw new Error(`unknown rule "${ruleId}"`);
    return evaluate(compiled, facts);
  }

  /** Does a rule listening to this kind use a change operator (so the previous state must be kept)? */
  needsPrevious(type: string): boolean {
    return this.changeNamesByEvent.has(type);
  }

  /** Stage and member names the change operators of this kind's rules compare with. */
  changeNames(type: string): readonly ChangeName[] {
    return this.changeNamesByEvent.get(type) ?? [];
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

function evaluate(compiled: CompiledRule, facts: EvaluationFacts, withTrace = true): RuleEvaluation {
  const trace: ConditionTrace[] = [];
  const matched = compiled.conditions.evaluate(facts, withTrace ? trace : null);
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
