// Set-level check: chains of rules whose CRM writes re-trigger each other without end (loop), read
// path by path (rule-paths.ts): an action re-triggers along the paths that perform it, a path whose
// own actions make its conditions false (rule `if` and arm conditions) does not run twice in a row,
// and two paths exclusive on a field nobody in the chain writes never take turns.
import { actionDefinition, actionLabel } from '../../catalogue/catalogue';
import {
  exclusiveLeafFields,
  falsifies,
  ignoresOutgoing,
  opposed,
  writtenField,
} from '../format/condition-leaves';
import { eventsOf, type LoadedRule } from '../format/loaded-rule';
import { actionPath } from '../format/parse-steps';
import { onPath, pathLabel, pathLeaves, pathsWith, rulePaths, type RulePath } from '../format/rule-paths';
import type { RuleAction, RuleDefinition, RuleProblem } from '../format/rule-types';

interface Edge {
  to: number;
  action: RuleAction;
  actionIndex: number;
  kind: string;
  /** The paths of the rule that perform the action (indices into rulePaths). */
  paths: number[];
}

/** The path's own actions make one of its conditions false: the next run cannot take it again. */
function pathDisabling(def: RuleDefinition, path: RulePath): boolean {
  const leaves = pathLeaves(def, path);
  return path.steps.some((s) => leaves.some((l) => falsifies(def.actions[s.action], l)));
}

function buildGraph(rules: LoadedRule[]): Edge[][] {
  return rules.map((r) => {
    const edges: Edge[] = [];
    if (!r.def.enabled || r.def.mode !== 'live') return edges;
    r.def.actions.forEach((action, actionIndex) => {
      const paths = pathsWith(r.def, actionIndex);
      // An action no path reaches (beyond the path cap) writes nothing the check can follow.
      if (paths.length === 0) return;
      for (const kind of actionDefinition(action.type).effect.emits(action)) {
        rules.forEach((s, to) => {
          if (!s.def.enabled || !eventsOf(s.def).includes(kind)) return;
          // The message a rule sends is outgoing: rules that require inbound messages ignore it.
          if (kind === 'message.created' && ignoresOutgoing(s.def)) return;
          edges.push({ to, action, actionIndex, kind, paths });
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
    const { start, via, reason, first } = found;
    const chain = first
      ? [first, ...(first.to === start ? [] : cyclePath(first.to, start, inScc, graph))]
      : start === via
        ? cyclePath(start, start, inScc, graph)
        : [...cyclePath(start, via, inScc, graph), ...cyclePath(via, start, inScc, graph)];
    const fromOf = (i: number) => rules[i === 0 ? start : chain[i - 1].to].def;
    const text = chain
      .map((e, i) => {
        const def = fromOf(i);
        const path = i === 0 && found.path ? found.path : stepPath(def, e);
        return `${def.id}${onPath(path)} (${actionLabel(e.action)} -> ${e.kind})`;
      })
      .join(' -> ');
    const problem: RuleProblem = {
      ...rules[start].at.pos(actionPath(rules[start].def, chain[0].actionIndex)),
      severity: 'error',
      code: 'loop',
      message: `loop: ${text} -> ${rules[start].def.id}: ${reason}; break the chain with a condition the actions make false, or drop one of the actions`,
    };
    const steps = chain.map((e, i) => ({
      from: fromOf(i).id,
      actionIndex: e.actionIndex,
      kind: e.kind,
      to: rules[e.to].def.id,
    }));
    problems.push({ problem, steps });
  }
  return problems;
}

/** The path to name for a step: none when every path of the rule performs its action. */
function stepPath(def: RuleDefinition, e: Edge): RulePath | undefined {
  const { paths } = rulePaths(def);
  return e.paths.length < paths.length ? paths[e.paths[0]] : undefined;
}

interface Endless {
  start: number;
  via: number;
  reason: string;
  /** The edge that writes again on every run, and the path it does so on. */
  first?: Edge;
  path?: RulePath;
}

/** Why a cyclic component never settles: an action that always writes, or two writes undoing each other. */
function endlessCycle(
  scc: number[],
  inScc: Set<number>,
  rules: LoadedRule[],
  graph: Edge[][],
): Endless | undefined {
  for (const r of scc) {
    const { def } = rules[r];
    const { paths } = rulePaths(def);
    for (const e of graph[r]) {
      if (!inScc.has(e.to) || !actionDefinition(e.action.type).effect.alwaysWrites?.(e.action, e.kind))
        continue;
      const path = e.paths.map((i) => paths[i]).find((p) => !pathDisabling(def, p));
      if (path)
        return {
          start: r,
          via: r,
          first: e,
          path,
          reason: `${actionLabel(e.action)} writes again on every run${onPath(path)}`,
        };
    }
  }
  const written = new Set(
    scc.flatMap((i) => rules[i].def.actions.map(writtenField).filter((f): f is string => !!f)),
  );
  for (const a of scc)
    for (const b of scc) {
      if (b < a) continue;
      const why = undoingPaths(rules[a].def, rules[b].def, written);
      if (why) return { start: a, via: b, reason: `the rules keep undoing each other's ${why}` };
    }
  return undefined;
}

/**
 * What a path of `a` and a path of `b` (a and b may be one rule) undo of each other, unless the
 * two paths exclude each other on a field nobody in the cycle writes: then they never take turns.
 */
function undoingPaths(a: RuleDefinition, b: RuleDefinition, written: Set<string>): string | undefined {
  const [pa, pb] = [rulePaths(a).paths, rulePaths(b).paths];
  for (let i = 0; i < pa.length; i++)
    for (let j = a === b ? i : 0; j < pb.length; j++) {
      const what = pa[i].steps
        .flatMap((x) => pb[j].steps.map((y) => opposed(a.actions[x.action], b.actions[y.action])))
        .find(Boolean);
      if (!what) continue;
      const stable =
        (a !== b || i !== j) &&
        exclusiveLeafFields(pathLeaves(a, pa[i]), pathLeaves(b, pb[j])).some((f) => !written.has(f));
      if (!stable) return `${what}${pathsNote(a, pa[i], b, pb[j])}`;
    }
  return undefined;
}

/** Where the two paths are, for rules with branches: ` on paths [then] and [else]`, ` ("b" on path [x])`. */
function pathsNote(a: RuleDefinition, pa: RulePath, b: RuleDefinition, pb: RulePath): string {
  if (a === b) return pa === pb ? onPath(pa) : ` on paths ${pathLabel(pa)} and ${pathLabel(pb)}`;
  const parts = [[a, pa] as const, [b, pb] as const]
    .filter(([, p]) => p.labels.length > 0)
    .map(([d, p]) => `"${d.id}"${onPath(p)}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
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
