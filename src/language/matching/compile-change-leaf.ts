// One change-operator leaf (`{ fact: contact.stageId, operator: changedTo, value: Qualified }`)
// compiled into a closure like the other leaves of compile-conditions.ts: it reads the field in
// the contact and in the previous state, and its trace entry keeps both (what the run records
// of `previous`), or says there was no previous state.
import type { ConditionTrace, EvaluationFacts } from '../rules/format/rule-types';
import {
  changeHolds,
  NAMED_ID_FIELDS,
  NO_PREVIOUS_STATE,
  TAG_CHANGE_OPERATORS,
  type ChangeLeaf,
  type ChangeOperator,
} from './change-operators';
import { compilePath, parseFactPath } from './fact-path';
import { tagsOf } from './operators';

type Node = Record<string, unknown>;
type Evaluator = (facts: EvaluationFacts, trace: ConditionTrace[] | null) => boolean;

export function compileChangeLeaf(node: Node, at: string): Evaluator {
  const fact = String(node.fact);
  const path = typeof node.path === 'string' ? node.path : undefined;
  const operator = String(node.operator);
  const parts = operator.split(':');
  const base = parts.pop() as ChangeOperator;
  // Only `not:` is accepted by the validator in front of a change operator.
  const negated = parts.filter((d) => d === 'not').length % 2 === 1;
  const segments = path ? parseFactPath(path) : [];
  const field = segments?.length === 1 ? String(segments[0]) : undefined;
  const tags = TAG_CHANGE_OPERATORS.has(base) || field === 'tags';
  const leaf: ChangeLeaf = {
    operator: base,
    value: node.value,
    ...(field && NAMED_ID_FIELDS[field] ? { idKind: NAMED_ID_FIELDS[field] } : {}),
    tags,
  };
  const read = compilePath(path);
  const show = tags ? showTags : (v: unknown) => v;
  return (f, trace) => {
    const previous = f.previous?.contact;
    const after = read(f.contact);
    const before = previous === undefined ? undefined : read(previous);
    const result = previous !== undefined && changeHolds(leaf, before, after, f.names) !== negated;
    if (trace === null) return result;
    const entry: ConditionTrace = {
      fact,
      operator,
      expected: node.value,
      actual: show(after),
      result,
      at,
    };
    if (previous !== undefined) entry.before = show(before);
    if (path) entry.path = path;
    if (previous === undefined) {
      const why = f.previous?.missing;
      entry.note = why ? `${NO_PREVIOUS_STATE}: ${why}` : NO_PREVIOUS_STATE;
    } else if (leaf.idKind && typeof node.value === 'string') {
      const id = f.names?.(leaf.idKind, node.value);
      if (id === undefined && node.value !== after && node.value !== before)
        entry.note = `unknown ${leaf.idKind} "${node.value}"`;
    }
    trace.push(entry);
    return result;
  };
}

/** Tag lists are shown by name in the trace, as hasTag shows them. */
function showTags(value: unknown): unknown {
  if (value === undefined) return undefined;
  return tagsOf(value).map((t) => (typeof t?.name === 'string' ? t.name : t?.id));
}
