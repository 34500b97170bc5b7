// The execution paths of a rule: every way a run can go through its if / switch / split / wait
// outcomes, as the ordered actions it performs (each with its moment: the waits passed before it),
// the arm labels it takes (as a run's timeline and rule tests' `expect.path` name them) and the
// conditions its arms required. Built with the runtime's own decisions (branch-plan.ts), so "same
// path, same moment" means here what it means to the runner. The loop, conflict and tag-fight
// checks read a rule through its paths. A run cancelled by a wait's `until` / `unless` or a goal
// does a prefix of a path, so the paths cover it. Pure: no Nest, no I/O.
import { armNotTaken, nextControl } from '../gates/branch-plan';
import { conditionLeaves, requiredLeaves, type Leaf } from './condition-leaves';
import type { RuleDefinition } from './rule-types';

/** More paths than this through one rule (8 if/else in a row is 256): the checks read the first ones. */
export const PATH_CAP = 128;

export interface PathStep {
  action: number;
  /** Waits passed before the action on this path: two actions of one moment run back to back. */
  moment: number;
}

/** What one arm taken requires: its `when` held (`holds`), or an earlier arm's `when` failed. */
export interface PathCondition {
  when: Record<string, unknown>;
  holds: boolean;
  /** Decided after a wait ended with its `until` event: event.* / message.* read that event. */
  afterEvent: boolean;
}

export interface RulePath {
  /** The arm labels taken, in order: `[]` for a rule without branches, else e.g. ['on-timeout', 'else']. */
  labels: string[];
  steps: PathStep[];
  conditions: PathCondition[];
}

export interface RulePaths {
  paths: RulePath[];
  /** More than PATH_CAP paths exist; `paths` holds the first PATH_CAP in written order. */
  capped: boolean;
  /** Per action, the indices of the paths that perform it. */
  withAction: number[][];
}

interface Walk {
  next: number;
  passed: Set<number>;
  decided: Map<number, number>;
  path: RulePath;
  afterEvent: boolean;
}

const cache = new WeakMap<RuleDefinition, RulePaths>();

/** Every path of the rule, `then` before `else`, cases and arms in written order. */
export function rulePaths(def: RuleDefinition): RulePaths {
  let found = cache.get(def);
  if (!found) {
    found = enumeratePaths(def);
    cache.set(def, found);
  }
  return found;
}

function enumeratePaths(def: RuleDefinition): RulePaths {
  const paths: RulePath[] = [];
  let capped = false;
  const pending: Walk[] = [
    {
      next: 0,
      passed: new Set(),
      decided: new Map(),
      path: { labels: [], steps: [], conditions: [] },
      afterEvent: false,
    },
  ];
  while (pending.length > 0) {
    if (paths.length >= PATH_CAP) {
      capped = true;
      break;
    }
    const forks = advance(def, pending.pop()!);
    if (Array.isArray(forks)) pending.push(...forks.reverse());
    else paths.push(forks.path);
  }
  const withAction = def.actions.map((_, action) =>
    paths.flatMap((p, i) => (p.steps.some((s) => s.action === action) ? [i] : [])),
  );
  return { paths, capped, withAction };
}

/** Runs a walk to its end (returned) or to the next branch (its arms returned, one walk each). */
function advance(def: RuleDefinition, walk: Walk): Walk | Walk[] {
  const { passed, decided, path } = walk;
  for (; walk.next < def.actions.length; walk.next++) {
    const action = walk.next;
    for (;;) {
      if (armNotTaken(def, decided, action)) break;
      const control = nextControl(def, action, passed, decided);
      if (!control) {
        path.steps.push({ action, moment: passed.size });
        break;
      }
      if (control.kind === 'wait') {
        passed.add(control.wait);
        continue;
      }
      return def.branches![control.branch].arms.map((arm, k, arms) => {
        const failed = arms.slice(0, k).flatMap((a) => (a.when ? [{ when: a.when, holds: false }] : []));
        const taken = [...failed, ...(arm.when ? [{ when: arm.when, holds: true }] : [])];
        return {
          next: action,
          passed: new Set(passed),
          decided: new Map(decided).set(control.branch, k),
          afterEvent: walk.afterEvent || arm.label === 'on-event',
          path: {
            labels: [...path.labels, arm.label],
            steps: [...path.steps],
            conditions: [...path.conditions, ...taken.map((c) => ({ ...c, afterEvent: walk.afterEvent }))],
          },
        };
      });
    }
  }
  return walk;
}

/** `[on-timeout, else]`; empty for the one path of a rule without branches. */
export function pathLabel(path: RulePath): string {
  return path.labels.length > 0 ? `[${path.labels.join(', ')}]` : '';
}

/** ` on path [else]` for a path through branches; nothing for the one path of a rule without. */
export const onPath = (path: RulePath | undefined): string =>
  path && path.labels.length > 0 ? ` on path ${pathLabel(path)}` : '';

/** The paths that perform action `action` (indices into rulePaths(def).paths). */
export function pathsWith(def: RuleDefinition, action: number): number[] {
  return rulePaths(def).withAction[action] ?? [];
}

/**
 * Whether one run can do both actions back to back: some path performs both with no wait between
 * them (a wait makes the later one a deliberate follow-up: tag while waiting, clear on a reply).
 */
export function sameMoment(def: RuleDefinition, first: number, second: number): boolean {
  return samePathMoment(def, first, second) !== undefined;
}

/** The first path on which both actions run at one moment, if any. */
export function samePathMoment(def: RuleDefinition, first: number, second: number): RulePath | undefined {
  return rulePaths(def).paths.find((p) => {
    const [a, b] = [first, second].map((i) => p.steps.find((s) => s.action === i));
    return !!a && !!b && a.moment === b.moment;
  });
}

/** What every run along the path certainly requires: the rule's `if` and the path's arm conditions. */
export function pathLeaves(def: RuleDefinition, path: RulePath): Leaf[] {
  let leaves = leavesCache.get(path);
  if (!leaves) {
    leaves = leavesOfPath(def, path);
    leavesCache.set(path, leaves);
  }
  return leaves;
}

const leavesCache = new WeakMap<RulePath, Leaf[]>();

function leavesOfPath(def: RuleDefinition, path: RulePath): Leaf[] {
  return [...requiredLeaves(def), ...armLeaves(def, path)];
}

/**
 * What the arms taken on the path require (their conditions, not the rule's `if`). After an
 * `on-event` arm, event.* and message.* leaves read the awaited event, not the trigger: left out.
 */
export function armLeaves(def: RuleDefinition, path: RulePath): Leaf[] {
  return path.conditions.flatMap((c) =>
    conditionLeaves(c.when, def, c.holds).filter(
      (l) => !c.afterEvent || !(l.field.startsWith('event.') || l.field.startsWith('message.')),
    ),
  );
}
