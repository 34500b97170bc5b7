// Conditions (json-rules-engine TopLevelCondition) compiled once, when a rule set loads, into
// plain closures that evaluate synchronously and record the explain trace. The semantics are
// json-rules-engine's: the same Operator objects, the same path rules, every condition of an
// all/any evaluated (none skipped, so the trace is complete), results compared `=== true`.
// Without a trace (trace = null: offline replay, forecasts) nothing is recorded and all/any stop
// at the first deciding child: conditions are pure, so the outcome is the same, only cheaper.
import { parseDuration } from '../rules/format/durations';
import type { ConditionTrace, EvaluationFacts } from '../rules/format/rule-types';
import { clockParts, DEFAULT_TIMEZONE, unitsSince, type SinceUnit } from './clock';
import { compilePath } from './fact-path';
import { compileChangeLeaf } from './compile-change-leaf';
import { isChangeOperator } from './change-operators';
import { lookupOperator, tagsOf, TIME_OPERATORS } from './operators';

export type ConditionEvaluator = (facts: EvaluationFacts, trace: ConditionTrace[] | null) => boolean;

export interface CompiledConditions {
  evaluate: ConditionEvaluator;
  /** Fact roots read (`contact`, `message`, `event`, `now`; `previous` when a change operator is used). */
  facts: Set<string>;
}

type Node = Record<string, unknown>;

const MAX_TRACE_STRING = 200;

/** The rule's time zone: calendar facts (`now.hour`) and `daysSince` are read in it. */
export function compileConditions(
  conditions: Node | undefined,
  timezone: string = DEFAULT_TIMEZONE,
): CompiledConditions {
  const facts = new Set<string>();
  if (!conditions) return { evaluate: () => true, facts };
  const evaluate = compileNode(conditions, '', facts, timezone);
  return { evaluate: facts.has('previous') ? withoutPreviousNoMatch(evaluate) : evaluate, facts };
}

/**
 * A rule with a change operator never matches without a previous state (first sight of a contact),
 * whatever `not` or `any` surrounds the change leaves: "changed" cannot be known, so nothing fires.
 * The leaves are still evaluated for the trace, each change leaf noting why it is false.
 */
function withoutPreviousNoMatch(evaluate: ConditionEvaluator): ConditionEvaluator {
  return (f, t) => {
    const result = evaluate(f, t);
    return result && f.previous?.contact !== undefined;
  };
}

function compileNode(node: Node, at: string, facts: Set<string>, tz: string): ConditionEvaluator {
  const join = (seg: string) => (at ? `${at}.${seg}` : seg);
  if (Array.isArray(node.all) || Array.isArray(node.any)) {
    const kind = Array.isArray(node.all) ? 'all' : 'any';
    const children = (node[kind] as Node[]).map((c, i) => compileNode(c, join(`${kind}[${i}]`), facts, tz));
    return kind === 'all' ? evaluateAll(children) : evaluateAny(children);
  }
  if (node.not && typeof node.not === 'object') {
    const child = compileNode(node.not as Node, join('not'), facts, tz);
    return (f, t) => !child(f, t);
  }
  return compileLeaf(node, at || 'all[0]', facts, tz);
}

function evaluateAll(children: ConditionEvaluator[]): ConditionEvaluator {
  return (f, t) => {
    let ok = true;
    for (const child of children) {
      if (child(f, t)) continue;
      ok = false;
      if (t === null) break;
    }
    return ok;
  };
}

function evaluateAny(children: ConditionEvaluator[]): ConditionEvaluator {
  return (f, t) => {
    if (children.length === 0) return true; // json-rules-engine: an empty any passes
    let ok = false;
    for (const child of children) {
      if (!child(f, t)) continue;
      ok = true;
      if (t === null) break;
    }
    return ok;
  };
}

function compileLeaf(node: Node, at: string, facts: Set<string>, tz: string): ConditionEvaluator {
  const fact = String(node.fact);
  const path = typeof node.path === 'string' ? node.path : undefined;
  const since = typeof node.since === 'string' ? (node.since as SinceUnit) : undefined;
  const operator = String(node.operator);
  if (isChangeOperator(operator.split(':').pop()!)) {
    facts.add(fact);
    facts.add('previous');
    return compileChangeLeaf(node, at);
  }
  const op = lookupOperator(operator);
  if (!op) throw new Error(`unknown operator "${operator}" (the validator should have refused it)`);
  facts.add(fact);
  const read = compileRead(fact, path, since, tz);
  const base = operator.split(':').pop()!;
  const expected = node.value;
  const durationMs = TIME_OPERATORS.has(base) ? parseDuration(expected) : undefined;
  if (durationMs !== undefined || since) facts.add('now');
  const show = base === 'hasTag' || base === 'hasAnyTag' ? showTags : showValue;
  return (f, trace) => {
    if (trace === null) {
      const cutoff = durationMs === undefined ? expected : new Date(f.now.getTime() - durationMs);
      try {
        return op.evaluate(read(f, false).actual, cutoff) === true;
      } catch {
        return false;
      }
    }
    const { actual, note: readNote } = read(f, true);
    const cutoff = durationMs === undefined ? undefined : new Date(f.now.getTime() - durationMs);
    let result = false;
    let note: string | undefined = cutoff ? `cutoff ${cutoff.toISOString()}` : readNote;
    try {
      result = op.evaluate(actual, cutoff ?? expected) === true;
    } catch (err) {
      note = `operator failed: ${(err as Error).message}`;
    }
    const entry: ConditionTrace = { fact, operator, expected, actual: show(actual), result, at };
    if (path) entry.path = path;
    if (since) entry.since = since;
    if (note) entry.note = note;
    trace.push(entry);
    return result;
  };
}

/** `withNote`: also say how the value was read (for the trace only). */
type Read = (f: EvaluationFacts, withNote: boolean) => { actual: unknown; note?: string };

/**
 * `now` with a path reads the calendar parts of now in the rule's time zone; a `since` leaf
 * reads a date and compares the whole units elapsed since it (the date goes in the note).
 */
function compileRead(fact: string, path: string | undefined, since: SinceUnit | undefined, tz: string): Read {
  const read = compilePath(path);
  if (fact === 'now' && path) {
    return (f) => ({ actual: read(clockParts(f.now, tz)), note: tz === DEFAULT_TIMEZONE ? undefined : tz });
  }
  if (since) {
    return (f, withNote) => {
      const date = read(factValue(f, fact));
      const actual = unitsSince(date, f.now, since, tz);
      return withNote ? { actual, note: `from ${String(showValue(date))}` } : { actual };
    };
  }
  return (f) => ({ actual: read(factValue(f, fact)) });
}

function factValue(f: EvaluationFacts, fact: string): unknown {
  switch (fact) {
    case 'event':
      return f.event;
    case 'contact':
      return f.contact;
    case 'message':
      return f.message;
    case 'now':
      return f.now;
    case 'failure':
      return f.failure;
    default:
      return undefined;
  }
}

function showValue(value: unknown): unknown {
  if (typeof value === 'string' && value.length > MAX_TRACE_STRING)
    return `${value.slice(0, MAX_TRACE_STRING)}…`;
  if (value instanceof Date) return value.toISOString();
  return value;
}

/** Tag operators read the whole tag list (or contact); the trace keeps the tag names. */
function showTags(value: unknown): unknown {
  if (value === undefined) return undefined;
  return tagsOf(value).map((t) => (typeof t?.name === 'string' ? t.name : t?.id));
}
