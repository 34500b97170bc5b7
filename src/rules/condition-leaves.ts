// Just enough reasoning about conditions for the conflict and loop checks: the leaves a rule
// requires (top-level `all`), whether two rules can never match the same contact, and whether
// a rule's own action makes its conditions false (so it cannot fire twice in a row).
import type { RuleAction, RuleDefinition } from './rule-types';

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
  const contactEvents =
    rule.trigger.kind === 'event' && rule.trigger.events.every((k) => k.startsWith('contact.'));
  const out: Leaf[] = [];
  const visit = (node: Node, negated: boolean) => {
    if (Array.isArray(node.all) && !negated) for (const c of node.all as Node[]) visit(c, false);
    else if (node.not && typeof node.not === 'object') visit(node.not as Node, !negated);
    else if (typeof node.operator === 'string') out.push(toLeaf(node, negated, contactEvents));
  };
  if (rule.conditions) visit(rule.conditions, false);
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

const same = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b;

function exclusive(a: Leaf, b: Leaf): boolean {
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

/** Fields on which the two rules can never both match (empty: they may overlap). */
export function exclusiveFields(a: RuleDefinition, b: RuleDefinition): string[] {
  const la = requiredLeaves(a);
  const lb = requiredLeaves(b);
  const fields = new Set<string>();
  for (const x of la) for (const y of lb) if (exclusive(x, y)) fields.add(x.field);
  return [...fields];
}

/** The contact field an action writes (every write also changes updatedAt). */
export function writtenField(action: RuleAction): string | undefined {
  switch (action.type) {
    case 'add-tag':
    case 'remove-tag':
      return 'contact.tags';
    case 'move-stage':
      return 'contact.stageId';
    case 'assign':
      return 'contact.assigneeId';
    case 'block':
    case 'unblock':
      return 'contact.isBlocked';
    default:
      return action.type !== 'create-segment' && action.type !== 'open-conversation' && action.assignFirst
        ? 'contact.assigneeId'
        : undefined;
  }
}

/** True when, right after `action`, the leaf is certainly false. */
export function falsifies(action: RuleAction, leaf: Leaf): boolean {
  const is = (op: string, value: unknown, negated = false) =>
    leaf.op === op && same(leaf.value, value) && leaf.negated === negated;
  switch (action.type) {
    case 'add-tag':
      return leaf.field === 'contact.tags' && is('hasTag', action.tag, true);
    case 'remove-tag':
      return leaf.field === 'contact.tags' && is('hasTag', action.tag);
    case 'assign':
      return leaf.field === 'contact.assigneeId' && (is('equal', null) || is('exists', false));
    case 'block':
      return leaf.field === 'contact.isBlocked' && (is('equal', false) || is('notEqual', true));
    case 'unblock':
      return leaf.field === 'contact.isBlocked' && (is('equal', true) || is('notEqual', false));
    case 'move-stage':
      return (
        action.stage !== null &&
        leaf.field === 'contact.stageId' &&
        (is('equal', null) || is('exists', false))
      );
    default:
      return false;
  }
}

/** A rule whose own actions make its conditions false: it cannot re-trigger itself. */
export function selfDisabling(rule: RuleDefinition): boolean {
  const leaves = requiredLeaves(rule);
  return rule.actions.some((a) => leaves.some((l) => falsifies(a, l)));
}

/** Two writes that undo each other: add/remove the same tag, block/unblock, different stages or members. */
export function opposed(a: RuleAction, b: RuleAction): string | undefined {
  if (a.type === 'add-tag' && b.type === 'remove-tag' && same(a.tag, b.tag)) return `tag "${a.tag}"`;
  if (a.type === 'remove-tag' && b.type === 'add-tag' && same(a.tag, b.tag)) return `tag "${a.tag}"`;
  if ((a.type === 'block' && b.type === 'unblock') || (a.type === 'unblock' && b.type === 'block'))
    return 'blocked state';
  if (a.type === 'move-stage' && b.type === 'move-stage' && !same(a.stage, b.stage)) return 'stage';
  if (a.type === 'assign' && b.type === 'assign' && !same(a.member, b.member)) return 'assignee';
  return undefined;
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
