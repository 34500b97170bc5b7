// The explain trace as people read it: the rule's condition tree with each node's result and,
// for each leaf, the value seen. Used by `crm-rules explain` and failing rule tests.
import type { ConditionTrace, RuleDefinition, RuleEvaluation } from '../rules/format/rule-types';
import { formatRuleTiming, stepsText } from './format-timing';

type Node = Record<string, unknown>;
const OK = '✔';
const NO = '✘';
const MAX_VALUE = 120;

export function showValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
}

export function describeLeaf(
  t: Pick<ConditionTrace, 'fact' | 'path' | 'operator' | 'expected' | 'since'>,
): string {
  const field = t.path ? `${t.fact}${t.path.replace(/^\$/, '')}` : t.fact;
  const read = t.since ? `${t.since} since ${field}` : field;
  return `${read} ${t.operator} ${showValue(t.expected)}`;
}

/** Lines (without trailing newline) explaining one evaluation. */
export function formatEvaluation(rule: RuleDefinition, evaluation: RuleEvaluation, indent = ''): string[] {
  const head = `${indent}rule ${rule.id} @${rule.version} (${rule.source.file}:${rule.source.line}:${rule.source.col})`;
  const status = evaluation.matched ? 'MATCHED' : 'not matched';
  const mode = rule.mode === 'shadow' ? ' [shadow: recorded, never sent]' : '';
  const lines = [`${head}: ${status}${rule.enabled ? '' : ' [disabled]'}${mode}`];
  if (!rule.conditions) lines.push(`${indent}  ${OK} no conditions: always matches`);
  else lines.push(...formatTree(rule.conditions, evaluation.trace, `${indent}  `));
  lines.push(...formatRuleTiming(rule, `${indent}  `));
  if (evaluation.matched)
    lines.push(`${indent}  actions: ${stepsText(rule, evaluation.actions) || '(none)'}`);
  return lines;
}

/** The condition tree with results; leaves found in the trace by their `at` path. */
export function formatTree(conditions: Node, trace: readonly ConditionTrace[], indent: string): string[] {
  const byAt = new Map(trace.map((t) => [t.at, t]));
  const lines: string[] = [];
  const walk = (node: Node, at: string, depth: number): boolean => {
    const pad = indent + '  '.repeat(depth);
    const join = (seg: string) => (at ? `${at}.${seg}` : seg);
    for (const kind of ['all', 'any'] as const) {
      if (!Array.isArray(node[kind])) continue;
      const slot = lines.push('') - 1;
      const results = (node[kind] as Node[]).map((c, i) => walk(c, join(`${kind}[${i}]`), depth + 1));
      const result = kind === 'all' ? results.every(Boolean) : results.length === 0 || results.some(Boolean);
      lines[slot] = `${pad}${result ? OK : NO} ${kind}`;
      return result;
    }
    if (node.not && typeof node.not === 'object') {
      const slot = lines.push('') - 1;
      const result = !walk(node.not as Node, join('not'), depth + 1);
      lines[slot] = `${pad}${result ? OK : NO} not`;
      return result;
    }
    const t = byAt.get(at || 'all[0]');
    if (!t) {
      lines.push(`${pad}? ${describeLeaf(node as unknown as ConditionTrace)} (not evaluated)`);
      return false;
    }
    const note = t.note ? ` (${t.note})` : '';
    lines.push(`${pad}${t.result ? OK : NO} ${describeLeaf(t)}: saw ${seen(t)}${note}`);
    return t.result;
  };
  walk(conditions, '', 0);
  return lines;
}

/** The value read; for a change operator, the value before the event too. */
function seen(t: ConditionTrace): string {
  return 'before' in t ? `${showValue(t.before)} → ${showValue(t.actual)}` : showValue(t.actual);
}

/** Flat form for traces that come without a condition tree (e.g. segment filters). */
export function formatTraceList(trace: readonly ConditionTrace[], indent: string): string[] {
  return trace.map(
    (t) =>
      `${indent}${t.result ? OK : NO} ${t.at}: ${describeLeaf(t)}: saw ${seen(t)}${t.note ? ` (${t.note})` : ''}`,
  );
}
