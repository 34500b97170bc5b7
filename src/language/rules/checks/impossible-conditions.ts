// Pure reasoning about one rule's `if`: a conjunction that no contact, message or event can
// satisfy. Sound, not complete: a condition is called impossible only when the operators'
// definitions (json-rules-engine's `===`, `indexOf`, `>`...) make it false for every fact value;
// anything else (decorators other than `not:`, text operators, regexes) is assumed satisfiable.
import type { YamlPath } from '../format/yaml-source';

type Node = Record<string, unknown>;

/** A leaf as a constraint on one fact value. */
interface Constraint {
  /** fact, path and since unit: two leaves on the same key read the same value in one evaluation. */
  key: string;
  op: string;
  value: unknown;
  negated: boolean;
  path: YamlPath;
  shown: string;
}

export interface Impossible {
  /** Where to point: the leaf that contradicts an earlier one, or the `any`. */
  path: YamlPath;
  reason: string;
}

const RANGE_OPS = new Set(['greaterThan', 'greaterThanInclusive', 'lessThan', 'lessThanInclusive']);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** Why `conditions` (json-rules-engine form, at YAML `path`) can never be true, or undefined. */
export function impossibleCondition(conditions: unknown, path: YamlPath = ['if']): Impossible | undefined {
  return visit(conditions, path);
}

function visit(node: unknown, path: YamlPath): Impossible | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const n = node as Node;
  if (Array.isArray(n.all)) {
    const children = n.all as unknown[];
    for (let i = 0; i < children.length; i++) {
      const found = visit(children[i], [...path, 'all', i]);
      if (found) return found;
    }
    return contradiction(constraintsOf(children, [...path, 'all']));
  }
  if (Array.isArray(n.any)) {
    const children = n.any as unknown[];
    if (children.length === 0) return undefined;
    const reasons = children.map((c, i) => visit(c, [...path, 'any', i]));
    if (reasons.some((r) => !r)) return undefined;
    return {
      path,
      reason: `every branch of this any is impossible (${reasons.map((r) => r!.reason).join('; ')})`,
    };
  }
  if (typeof n.operator === 'string') {
    const c = constraint(n, path, false);
    return c ? emptyLeaf(c) : undefined;
  }
  return undefined;
}

/** Leaves that must hold together: direct leaves, leaves of nested alls, and `not` of a leaf. */
function constraintsOf(children: unknown[], path: YamlPath): Constraint[] {
  const out: Constraint[] = [];
  children.forEach((child, i) => {
    const n = child as Node;
    const at = [...path, i];
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n.all)) out.push(...constraintsOf(n.all as unknown[], [...at, 'all']));
    else if (n.not && typeof n.not === 'object' && typeof (n.not as Node).operator === 'string') {
      const c = constraint(n.not as Node, [...at, 'not'], true);
      if (c) out.push(c);
    } else if (typeof n.operator === 'string') {
      const c = constraint(n, at, false);
      if (c) out.push(c);
    }
  });
  return out;
}

function constraint(n: Node, path: YamlPath, negated: boolean): Constraint | undefined {
  const parts = (n.operator as string).split(':');
  const op = parts.pop()!;
  // someFact:, everyValue:, ignoreCase: ... change what is compared: not reasoned about.
  if (parts.some((d) => d !== 'not')) return undefined;
  const flips = parts.length % 2 === 1;
  const read = `${String(n.fact)}${typeof n.path === 'string' ? n.path.replace(/^\$/, '') : ''}`;
  const key = typeof n.since === 'string' ? `${n.since}Since(${read})` : read;
  const neg = negated !== flips;
  const shown = `${neg ? 'not ' : ''}${key} ${op} ${JSON.stringify(n.value)}`;
  return { key, op, value: n.value, negated: neg, path, shown };
}

/** A single leaf that is always false: membership of an empty list. */
function emptyLeaf(c: Constraint): Impossible | undefined {
  if (!c.negated && (c.op === 'in' || c.op === 'hasAnyTag') && Array.isArray(c.value) && c.value.length === 0)
    return { path: [...c.path, 'value'], reason: `${c.shown} is never true (nothing is in an empty list)` };
  return undefined;
}

function contradiction(cs: Constraint[]): Impossible | undefined {
  for (const c of cs) {
    const empty = emptyLeaf(c);
    if (empty) return empty;
  }
  for (let j = 1; j < cs.length; j++)
    for (let i = 0; i < j; i++) {
      const [a, b] = [cs[i], cs[j]];
      if (a.key !== b.key || !excludes(a, b)) continue;
      return { path: b.path, reason: `${a.shown} and ${b.shown} can never both be true` };
    }
  return emptyRange(cs);
}

/** Two leaves on one value that no value satisfies together. */
function excludes(a: Constraint, b: Constraint): boolean {
  if (a.op === b.op && a.negated !== b.negated && same(a.value, b.value)) return true;
  if (a.negated || b.negated) return false;
  const members = (c: Constraint): unknown[] | undefined =>
    c.op === 'equal' && isScalar(c.value)
      ? [c.value]
      : c.op === 'in' && Array.isArray(c.value) && c.value.every(isScalar)
        ? c.value
        : undefined;
  const ma = members(a);
  const mb = members(b);
  // equal is ===, in is indexOf: a value equal to a scalar is that scalar.
  if (ma && mb) return !ma.some((x) => mb.includes(x));
  const excluded = (c: Constraint): unknown[] | undefined =>
    c.op === 'notEqual' && isScalar(c.value)
      ? [c.value]
      : c.op === 'notIn' && Array.isArray(c.value)
        ? c.value
        : undefined;
  for (const [m, x] of [
    [ma, excluded(b)],
    [mb, excluded(a)],
  ])
    if (m && x && m.every((v) => x.includes(v))) return true;
  if (a.op === 'exists' && b.op === 'exists') return a.value !== b.value;
  return false;
}

/** Numeric bounds on one value that no number meets (`> 10` and `< 5`, `equal 3` and `> 4`). */
function emptyRange(cs: Constraint[]): Impossible | undefined {
  const byKey = new Map<string, Constraint[]>();
  for (const c of cs)
    if (!c.negated && typeof c.value === 'number' && (RANGE_OPS.has(c.op) || c.op === 'equal'))
      byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
  for (const list of byKey.values()) {
    let lo = { v: -Infinity, strict: false, c: undefined as Constraint | undefined };
    let hi = { v: Infinity, strict: false, c: undefined as Constraint | undefined };
    for (const c of list) {
      const v = c.value as number;
      const strict = c.op === 'greaterThan' || c.op === 'lessThan';
      if (c.op.startsWith('greater') || c.op === 'equal')
        if (v > lo.v || (v === lo.v && strict)) lo = { v, strict, c };
      if (c.op.startsWith('less') || c.op === 'equal')
        if (v < hi.v || (v === hi.v && strict)) hi = { v, strict, c };
      const empty = lo.v > hi.v || (lo.v === hi.v && (lo.strict || hi.strict));
      if (empty && lo.c && hi.c)
        return { path: c.path, reason: `${lo.c.shown} and ${hi.c.shown} leave no number between them` };
    }
  }
  return undefined;
}
