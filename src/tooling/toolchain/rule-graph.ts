// The rule graph (crm-rules graph): triggers (event kinds, segment schedules) -> rules -> actions
// -> the events those actions make the CRM emit (the catalogue's effects) -> the rules they trigger.
// Loops, conflicts (same-trigger and cross-trigger tag fights) and unreachable rules are marked by
// the validator's own checks. Pure and deterministic (sorted), so the rendering can be committed.
import { originText } from '../../language/rules/format/action-origin';
import { actionDefinition, actionLabel } from '../../language/catalogue/catalogue';
import { armsOf } from '../../language/rules/gates/branch-plan';
import { findConflicts } from '../../language/rules/checks/check-conflicts';
import { findLoops } from '../../language/rules/checks/check-loops';
import { redundantRules } from '../../language/rules/checks/check-reachability';
import { findTagFights } from '../../language/rules/checks/check-tag-fights';
import { impossibleCondition } from '../../language/rules/checks/impossible-conditions';
import { eventsOf, type LoadedRule } from '../../language/rules/format/loaded-rule';
import { ignoresOutgoing } from '../../language/rules/format/condition-leaves';
import type { RuleAction, RuleDefinition } from '../../language/rules/format/rule-types';

export type NodeKind = 'event' | 'schedule' | 'rule' | 'action';
/** How a node is drawn: in a loop, in a conflict, never acting, not writing (disabled, shadow). */
export type Mark = 'loop' | 'conflict' | 'unreachable' | 'disabled' | 'shadow';
export type EdgeKind = 'triggers' | 'does' | 'on-leave' | 'emits';

export interface GraphNode {
  /** `event:contact.created`, `schedule:<rule>`, `rule:<id>`, `action:<rule>:<i>`, `leave:<rule>:<i>`. */
  key: string;
  kind: NodeKind;
  label: string;
  marks: Mark[];
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  /** On the chain of a reported loop. */
  loop: boolean;
}

export interface RuleGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export const MARKS: readonly Mark[] = ['loop', 'conflict', 'unreachable', 'disabled', 'shadow'];
const KIND_ORDER: NodeKind[] = ['event', 'schedule', 'rule', 'action'];

const eventKey = (kind: string) => `event:${kind}`;
const OUTGOING_KIND = 'message.created';
const OUTGOING = `${OUTGOING_KIND}:outgoing`;
const ruleKey = (id: string) => `rule:${id}`;
const actionKey = (id: string, i: number) => `action:${id}:${i}`;

export function buildRuleGraph(rules: LoadedRule[]): RuleGraph {
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  const node = (key: string, kind: NodeKind, label: string) => {
    if (!nodes.has(key)) nodes.set(key, { key, kind, label, marks: [] });
    return nodes.get(key)!;
  };
  const edge = (from: string, to: string, kind: EdgeKind) => {
    const id = `${from}\u0000${to}\u0000${kind}`;
    if (!edges.has(id)) edges.set(id, { from, to, kind, loop: false });
    return edges.get(id)!;
  };
  // The message a rule sends is outgoing: it triggers only the rules that do not require inbound ones.
  const emittedNode = (kind: string) => {
    if (kind !== OUTGOING_KIND) return node(eventKey(kind), 'event', kind);
    const outgoing = node(eventKey(OUTGOING), 'event', `${OUTGOING_KIND} (outgoing)`);
    for (const { def } of rules)
      if (eventsOf(def).includes(OUTGOING_KIND) && !ignoresOutgoing(def))
        edge(outgoing.key, ruleKey(def.id), 'triggers');
    return outgoing;
  };
  for (const { def } of rules) {
    const rule = node(ruleKey(def.id), 'rule', ruleLabel(def));
    if (!def.enabled) rule.marks.push('disabled');
    else if (def.mode === 'shadow') rule.marks.push('shadow');
    if (def.trigger.kind === 'event')
      for (const kind of def.trigger.events)
        edge(node(eventKey(kind), 'event', kind).key, rule.key, 'triggers');
    else {
      const t = def.trigger;
      const segment = t.segment.name ? ` segment "${t.segment.name}"` : ' segment';
      const label = `schedule ${t.cron}${t.timezone ? ` ${t.timezone}` : ''},${segment}`;
      edge(node(`schedule:${def.id}`, 'schedule', label).key, rule.key, 'triggers');
    }
    const writes = def.enabled && def.mode === 'live';
    const addAction = (action: RuleAction, key: string, label: string, kind: EdgeKind) => {
      edge(rule.key, node(key, 'action', label).key, kind);
      if (!writes) return;
      for (const emitted of actionDefinition(action.type).effect.emits(action))
        edge(key, emittedNode(emitted).key, 'emits');
    };
    def.actions.forEach((a, i) => {
      // An action inside branches says which arms it is in: `on-timeout / else: assign ...`.
      const arms = armsOf(def.branches ?? [], i);
      addAction(
        a,
        actionKey(def.id, i),
        `${arms.length ? `${arms.join(' / ')}: ` : ''}${actionLabel(a)}${originText(def, i)}`,
        'does',
      );
    });
    if (def.trigger.kind === 'schedule')
      def.trigger.onLeave.forEach((a, i) =>
        addAction(a, `leave:${def.id}:${i}`, `on leave: ${actionLabel(a)}`, 'on-leave'),
      );
  }
  markProblems(rules, nodes, edges);
  const kindRank = (n: GraphNode) => KIND_ORDER.indexOf(n.kind);
  const sorted = [...nodes.values()]
    .map((n) => ({ ...n, marks: MARKS.filter((m) => n.marks.includes(m)) }))
    .sort((a, b) => kindRank(a) - kindRank(b) || compare(a.key, b.key));
  // Edges in node order: a rule's trigger, then its actions, then what they emit.
  const rank = new Map(sorted.map((n, i) => [n.key, i]));
  return {
    nodes: sorted,
    edges: [...edges.values()].sort(
      (a, b) =>
        rank.get(a.from)! - rank.get(b.from)! || rank.get(a.to)! - rank.get(b.to)! || compare(a.kind, b.kind),
    ),
  };
}

function markProblems(rules: LoadedRule[], nodes: Map<string, GraphNode>, edges: Map<string, GraphEdge>) {
  const mark = (key: string, m: Mark) => {
    const n = nodes.get(key);
    if (n && !n.marks.includes(m)) n.marks.push(m);
  };
  const markEdge = (from: string, to: string, kind: EdgeKind) => {
    const e = edges.get(`${from}\u0000${to}\u0000${kind}`);
    if (e) e.loop = true;
  };
  for (const { steps } of findLoops(rules))
    for (const s of steps) {
      const action = actionKey(s.from, s.actionIndex);
      [ruleKey(s.from), action, ruleKey(s.to)].forEach((k) => mark(k, 'loop'));
      markEdge(ruleKey(s.from), action, 'does');
      const event = eventKey(s.kind === OUTGOING_KIND ? OUTGOING : s.kind);
      markEdge(action, event, 'emits');
      markEdge(event, ruleKey(s.to), 'triggers');
    }
  for (const c of findConflicts(rules)) {
    [ruleKey(c.rule), ruleKey(c.other), actionKey(c.rule, c.actionIndex)].forEach((k) => mark(k, 'conflict'));
  }
  for (const f of findTagFights(rules)) f.rules.forEach((id) => mark(ruleKey(id), 'conflict'));
  for (const { def } of rules) if (impossibleCondition(def.conditions)) mark(ruleKey(def.id), 'unreachable');
  for (const { rule } of redundantRules(rules)) mark(ruleKey(rule.def.id), 'unreachable');
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function ruleLabel(def: RuleDefinition): string {
  const extra = [
    def.priority !== 0 ? `priority ${def.priority}` : '',
    def.once ? 'once' : '',
    !def.enabled ? 'disabled' : def.mode === 'shadow' ? 'shadow' : '',
  ].filter(Boolean);
  return extra.length ? `${def.id} (${extra.join(', ')})` : def.id;
}
