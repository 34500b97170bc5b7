// Just enough reasoning about conditions for the conflict and loop checks: the leaves a rule
// requires (top-level `all`), whether two rules can never match the same contact, and whether
// a rule's own action makes its conditions false (so it cannot fire twice in a row).
import { sameName } from '../../catalogue/action-definition';
import { actionDefinition } from '../../catalogue/catalogue';
import type { RuleAction, RuleDefinition } from './rule-types';

/** A RequiredLeaf of the catalogue's effects. */
export interface Leaf {
  /** `contact.stageId`, `contact.tags`, `message.isOutgoing`, ... */
  field: string;
  op: string;
  value: unknown;
  negated: boolean;
}

type Node = Record<string, unknown>;
const TAG_OPS = new Set(['hasTag', 'hasAnyTag']);

/** Leaves every match needs: the conjuncts of the top-level `all` (nested alls flattened, `not` of a leaf kept). */
export function requiredLeaves(rule: RuleDefinition): Leaf[] {
  return rule.conditions ? conditionLeaves(rule.conditions, rule) : [];
}

/**
 * Leaves a condition certainly needs to hold (`holds`), or to fail (`holds: false`: a failing `any`
 * fails every branch, a failing single leaf is its negation; a failing `all` of many says nothing).
 */
export function conditionLeaves(node: Node, rule: RuleDefinition, holds = true): Leaf[] {
  const contactEvents =
    rule.trigger.kind === 'event' && rule.trigger.events.every((k) => k.startsWith('contact.'));
  const out: Leaf[] = [];
  const visit = (n: Node, negated: boolean) => {
    const all = Array.isArray(n.all) ? (n.all as Node[]) : undefined;
    const any = Array.isArray(n.any) ? (n.any as Node[]) : undefined;
    if (all && (!negated || all.length === 1)) for (const c of all) visit(c, negated);
    else if (any && (negated || any.length === 1)) for (const c of any) visit(c, negated);
    else if (n.not && typeof n.not === 'object') visit(n.not as Node, !negated);
    else if (typeof n.operator === 'string') out.push(toLeaf(n, negated, contactEvents));
  };
  visit(node, !holds);
  return out;
}

function toLeaf(node: Node, negated: boolean, contactEvents: boolean): Leaf {
  let op = node.operator as string;
  while (op.startsWith('not:')) [op, negated] = [op.slice(4), !negated];
  const path = typeof node.path === 'string' ? node.path.replace(/^\$\.?/, '') : '';
  let field = path ? `${node.fact}.${path}` : String(node.fact);
  // On contact.* events, event.data is the contact.
  if (contactEvents && field.startsWith('event.data.'))
    field = `contact.${field.slice('event.data.'.length)}`;
  if (TAG_OPS.has(op) && (field === 'contact' || field === 'event.data')) field = 'contact.tags';
  return { field, op, value: node.value, negated };
}

const same = sameName;

/** Two leaves on one field that no value satisfies together. */
export function exclusive(a: Leaf, b: Leaf): boolean {
  if (a.field !== b.field) return false;
  if (a.op === b.op && a.negated !== b.negated && JSON.stringify(a.value) === JSON.stringify(b.value))
    return true;
  if (a.negated || b.negated) return false;
  const values = (l: Leaf): unknown[] | undefined =>
    l.op === 'equal' ? [l.value] : l.op === 'in' && Array.isArray(l.value) ? l.value : undefined;
  const va = values(a);
  const vb = values(b);
  if (va && vb) return !va.some((x) => vb.some((y) => same(x, y)));
  const [eq, other] = a.op === 'equal' ? [a, b] : [b, a];
  if (eq.op !== 'equal') return false;
  if (other.op === 'notEqual') return same(eq.value, other.value);
  if (other.op === 'notIn' && Array.isArray(other.value)) return other.value.some((y) => same(eq.value, y));
  return false;
}

/** Fields on which the two sets of leaves can never hold together (empty: they may overlap). */
export function exclusiveLeafFields(a: Leaf[], b: Leaf[]): string[] {
  const fields = new Set<string>();
  for (const x of a) for (const y of b) if (exclusive(x, y)) fields.add(x.field);
  return [...fields];
}

/** The contact field an action writes (every write also changes updatedAt). */
export function writtenField(action: RuleAction): string | undefined {
  return actionDefinition(action.type).effect.writes?.(action);
}

/** True when, right after `action`, the leaf is certainly false. */
export function falsifies(action: RuleAction, leaf: Leaf): boolean {
  return actionDefinition(action.type).effect.falsifies?.(action, leaf) ?? false;
}

/** Two writes that undo each other: add/remove the same tag, block/unblock, different stages or members. */
export function opposed(a: RuleAction, b: RuleAction): string | undefined {
  return undoing(a, b)?.what;
}

/** What `b` undoes of `a`, and whether that is a conflict when both run on one trigger (tags, blocked state). */
export function undoing(a: RuleAction, b: RuleAction): { what: string; conflict: boolean } | undefined {
  return actionDefinition(a.type).effect.undoneBy?.(a, b as { type: string } & Record<string, unknown>);
}

/** Does the rule ignore its own outgoing messages (message.isOutgoing must be false)? */
export function ignoresOutgoing(rule: RuleDefinition): boolean {
  return requiredLeaves(rule).some(
    (l) =>
      (l.field === 'message.isOutgoing' || l.field === 'event.data.isOutgoing') &&
      ((l.op === 'equal' && l.value === (l.negated ? true : false)) ||
        (l.op === 'notEqual' && l.value === (l.negated ? false : true))),
  );
}
