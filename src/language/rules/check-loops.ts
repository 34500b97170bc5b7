// Set-level check: chains of rules whose CRM writes re-trigger each other without end (loop).
import { actionDefinition, actionLabel } from '../catalogue/catalogue';
import { exclusiveFields, ignoresOutgoing, opposed, selfDisabling, writtenField } from './condition-leaves';
import { eventsOf, type LoadedRule } from './loaded-rule';
import { actionPath } from './parse-steps';
import type { RuleAction, RuleProblem } from './rule-types';

interface Edge {
  to: number;
  action: RuleAction;
  actionIndex: number;
  kind: string;
}

function buildGraph(rules: LoadedRule[]): Edge[][] {
  return rules.map((r) => {
    const edges: Edge[] = [];
    if (!r.def.enabled || r.def.mode !== 'live') return edges;
    r.def.actions.forEach((action, actionIndex) => {
      for (const kind of actionDefinition(action.type).effect.emits(action)) {
        rules.forEach((s, to) => {
          if (!s.def.enabled || !eventsOf(s.def).includes(kind)) return;
          // The message a rule sends is outgoing: rules that require inbound messages ignore it.
          if (kind === 'message.created' && ignoresOutgoing(s.def)) return;
          edges.push({ to, action, actionIndex, kind });
        });
      }
    });
    return edges;
  });
}

/** Strongly connected components (Tarjan). */
function components(graph: Edge[][]): number[][] {
  const index = new Array<number>(graph.length).fill(-1);
  const low = new Array<number>(graph.length).fill(0);
  const onStack = new Array<boolean>(graph.length).fill(false);
  const stack: number[] = [];
  const out: number[][] = [];
  let next = 0;
  const visit = (v: number) => {
    index[v] = low[v] = next++;
    stack.push(v);
    onStack[v] = true;
    for (const { to } of graph[v]) {
      if (index[to] === -1) {
        visit(to);
        low[v] = Math.min(low[v], low[to]);
      } else if (onStack[to]) low[v] = Math.min(low[v], index[to]);
    }
    if (low[v] === index[v]) {
      const scc: number[] = [];
      let w: number;
      do {
        w = stack.pop()!;
        onStack[w] = false;
        scc.push(w);
      } while (w !== v);
      out.push(scc.sort((a, b) => a - b));
    }
  };
  graph.forEach((_, v) => index[v] === -1 && visit(v));
  return out;
}

/** One step of a loop: rule `from`'s action `actionIndex` emits `kind`, which triggers rule `to`. */
export interface LoopStep {
  from: string;
  actionIndex: number;
  kind: string;
  to: string;
}

export function checkLoops(all: LoadedRule[]): RuleProblem[] {
  return findLoops(all).map((l) => l.problem);
}

/** Every endless loop: its problem, and its chain (for the rule graph). */
export function findLoops(all: LoadedRule[]): { problem: RuleProblem; steps: LoopStep[] }[] {
  const rules = all.filter((r) => r.def.trigger.kind === 'event');
  const graph = buildGraph(rules);
  const problems: { problem: RuleProblem; steps: LoopStep[] }[] = [];
  for (const scc of components(graph)) {
    const inScc = new Set(scc);
    const cyclic = scc.length > 1 || graph[scc[0]].some((e) => e.to === scc[0]);
    if (!cyclic) continue;
    const found = endlessCycle(scc, inScc, rules, graph);
    if (!found) continue;
    const { start, via, reason } = found;
    const chain =
      start === via
        ? cyclePath(start, start, inScc, graph)
        : [...cyclePath(start, via, inScc, graph), ...cyclePath(via, start, inScc, graph)];
    const text = chain
      .map(
        (e, i) =>
          `${rules[i === 0 ? start : chain[i - 1].to].def.id} (${actionLabel(e.action)} -> ${e.kind})`,
      )
      .join(' -> ');
    const problem: RuleProblem = {
      ...rules[start].at.pos(actionPath(rules[start].def, chain[0].actionIndex)),
      severity: 'error',
      code: 'loop',
      message: `loop: ${text} -> ${rules[start].def.id}: ${reason}; break the chain with a condition the actions make false, or drop one of the actions`,
    };
    const steps = chain.map((e, i) => ({
      from: rules[i === 0 ? start : chain[i - 1].to].def.id,
      actionIndex: e.actionIndex,
      kind: e.kind,
      to: rules[e.to].def.id,
    }));
    problems.push({ problem, steps });
  }
  return problems;
}

/** Why a cyclic component never settles: an action that always writes, or two writes undoing each other. */
function endlessCycle(
  scc: number[],
  inScc: Set<number>,
  rules: LoadedRule[],
  graph: Edge[][],
): { start: number; via: number; reason: string } | undefined {
  for (const r of scc) {
    const always = graph[r].find(
      (e) => inScc.has(e.to) && !!actionDefinition(e.action.type).effect.alwaysWrites?.(e.action),
    );
    if (always && !selfDisabling(rules[r].def))
      return { start: r, via: r, reason: `${actionLabel(always.action)} writes again on every run` };
  }
  const written = new Set(
    scc.flatMap((i) => rules[i].def.actions.map(writtenField).filter((f): f is string => !!f)),
  );
  for (const a of scc) {
    for (const b of scc) {
      if (b < a) continue;
      const what = rules[a].def.actions
        .flatMap((x) => rules[b].def.actions.map((y) => opposed(x, y)))
        .find(Boolean);
      if (!what) continue;
      // Exclusive on a field nobody in the cycle writes: they can never take turns.
      const stable = a !== b && exclusiveFields(rules[a].def, rules[b].def).some((f) => !written.has(f));
      if (!stable) return { start: a, via: b, reason: `the rules keep undoing each other's ${what}` };
    }
  }
  return undefined;
}

/** Shortest chain of edges from `from` to `to` (which may be `from` itself) inside the component. */
function cyclePath(from: number, to: number, inScc: Set<number>, graph: Edge[][]): Edge[] {
  const prev = new Map<number, Edge & { from: number }>();
  const seen = new Set([from]);
  const queue = [from];
  let last: (Edge & { from: number }) | undefined;
  while (queue.length > 0 && !last) {
    const v = queue.shift()!;
    for (const e of graph[v]) {
      if (!inScc.has(e.to)) continue;
      if (e.to === to) {
        last = { ...e, from: v };
        break;
      }
      if (seen.has(e.to)) continue;
      seen.add(e.to);
      prev.set(e.to, { ...e, from: v });
      queue.push(e.to);
    }
  }
  if (!last) return [];
  const path: Edge[] = [last];
  for (let v = last.from; v !== from; v = prev.get(v)!.from) path.unshift(prev.get(v)!);
  return path;
}
