// Pure decisions of branches at run time, shared by the engine's runner (src/pipeline/execution/timing/branch-gate.ts)
// and the offline simulation: which control step comes next before an action (waits and branches
// meet in written order), whether an action lies in an arm the run did not take, which arm a branch
// takes (conditions, a wait's outcome, a split's hash). No Nest, no I/O.
import { createHash } from 'node:crypto';
import { compileConditions, type ConditionEvaluator } from '../../matching/compile-conditions';
import type { BranchArm, BranchStep, ConditionTrace, EvaluationFacts, WaitStep } from '../format/rule-types';

/** What of a plan branches read (a subset of TimingPlan, so this file does not import run-gates). */
export interface BranchPlan {
  waits?: WaitStep[];
  branches?: BranchStep[];
  timezone?: string;
}

export type Control = { kind: 'wait'; wait: number } | { kind: 'branch'; branch: number };

/**
 * The next wait or branch to meet before action `action`, in written order: a wait `w` comes before
 * a branch written after `afterWaits` waits when w < afterWaits; branches in index order (nested
 * ones after their parent). Undefined when none is left.
 */
export function nextControl(
  plan: BranchPlan,
  action: number,
  passed: ReadonlySet<number>,
  decided: ReadonlyMap<number, number>,
): Control | undefined {
  let best: { key: number; control: Control } | undefined;
  const consider = (key: number, control: Control) => {
    if (!best || key < best.key) best = { key, control };
  };
  (plan.waits ?? []).forEach((w, i) => {
    if (w.beforeAction === action && !passed.has(i)) consider(2 * i + 1, { kind: 'wait', wait: i });
  });
  (plan.branches ?? []).forEach((b, i) => {
    // Branches at one action: key 2 * afterWaits, the earlier index first (same key: first found wins).
    if (b.at === action && !decided.has(i)) consider(2 * b.afterWaits, { kind: 'branch', branch: i });
  });
  return best?.control;
}

/**
 * The branch and arm not taken that action `action` lies in, if any: the action is skipped. The
 * rest of a called list whose `on-failure:` was taken counts as its arm `call`, not taken.
 */
export function armNotTaken(
  plan: BranchPlan,
  decided: ReadonlyMap<number, number>,
  action: number,
): { branch: number; arm: BranchArm } | undefined {
  for (const [branch, taken] of decided) {
    const step = plan.branches?.[branch];
    const list = step?.covers;
    if (list && step.arms[taken]?.label === 'on-failure' && action >= list.from && action < list.to)
      return { branch, arm: { label: 'call', ...list } };
    const arm = step?.arms.find((a, i) => i !== taken && action >= a.from && action < a.to);
    if (arm) return { branch, arm };
  }
  return undefined;
}

/**
 * The `on-failure:` branch that action `action` failing takes (its index in the plan's branches):
 * its own, else that of the innermost `call:` whose list holds it. Undefined when none.
 */
export function failureBranchOf(plan: BranchPlan | undefined, action: number): number | undefined {
  let found: { i: number; size: number } | undefined;
  (plan?.branches ?? []).forEach((b, i) => {
    if (b.kind !== 'failure') return;
    const { from, to } = b.covers ?? { from: b.at - 1, to: b.at };
    if (action < from || action >= to) return;
    if (!found || to - from < found.size) found = { i, size: to - from };
  });
  return found?.i;
}

/** A number in [0, 1) from rule id, rule version and contact id: the same contact, the same arm. */
export function splitPoint(ruleId: string, ruleVersion: string, contactId: string): number {
  const digest = createHash('sha256').update(`${ruleId}\u0000${ruleVersion}\u0000${contactId}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** The arm of a split for a point in [0, 1): arms take consecutive shares in proportion to their weights. */
export function splitArm(arms: readonly BranchArm[], point: number): number {
  const total = arms.reduce((sum, a) => sum + (a.weight ?? 0), 0);
  let upTo = 0;
  for (let i = 0; i < arms.length; i++) {
    upTo += (arms[i].weight ?? 0) / total;
    if (point < upTo) return i;
  }
  return arms.length - 1;
}

export interface BranchInput {
  facts: EvaluationFacts;
  timezone?: string;
  /** outcome: whether the wait ended by its `until` event. */
  endedByEvent?: boolean;
  /** split: splitPoint of the run. */
  point?: number;
}

export interface BranchDecision {
  arm: number;
  label: string;
  /** if / switch: the trace of every case evaluated up to the one taken. */
  trace: ConditionTrace[];
}

const compiled = new WeakMap<object, ConditionEvaluator>();

function evaluator(node: Record<string, unknown>, timezone: string | undefined): ConditionEvaluator {
  let evaluate = compiled.get(node);
  if (!evaluate) {
    evaluate = compileConditions(node, timezone).evaluate;
    compiled.set(node, evaluate);
  }
  return evaluate;
}

/** Which arm a branch takes. */
export function decideBranch(step: BranchStep, input: BranchInput): BranchDecision {
  const pick = (arm: number, trace: ConditionTrace[] = []): BranchDecision => ({
    arm,
    label: step.arms[arm].label,
    trace,
  });
  if (step.kind === 'outcome')
    return pick(step.arms.findIndex((a) => a.label === (input.endedByEvent ? 'on-event' : 'on-timeout')));
  if (step.kind === 'split') return pick(splitArm(step.arms, input.point ?? 0));
  // Reached without the runner having taken on-failure: the action did not fail.
  if (step.kind === 'failure') return pick(step.arms.findIndex((a) => a.label === 'succeeded'));
  const trace: ConditionTrace[] = [];
  for (let i = 0; i < step.arms.length; i++) {
    const when = step.arms[i].when;
    if (!when) return pick(i, trace);
    const own: ConditionTrace[] = [];
    const passed = evaluator(when, input.timezone)(input.facts, own);
    trace.push(...own.map((t) => ({ ...t, at: `${step.arms[i].label}.${t.at}` })));
    if (passed) return pick(i, trace);
  }
  return pick(step.arms.length - 1, trace);
}

/** The labels of the arms action `action` lies in, outermost first (e.g. ["on-timeout", "else"]). */
export function armsOf(branches: readonly BranchStep[], action: number): string[] {
  return branches.flatMap((b) => b.arms.filter((a) => action >= a.from && action < a.to).map((a) => a.label));
}

/** The path of an offline replay: actions done, arm taken per branch reached, waits passed. */
export interface ReplayedPath {
  actions: number[];
  arms: Map<number, number>;
  waits: number[];
}

/**
 * Offline replays (crm-rules diff and forecast): the actions a run of a rule with branches would
 * do, deciding each branch on the triggering facts (if / switch / split) and taking `on-timeout`
 * for a wait's outcome (no later event is known); waits are assumed to pass.
 */
export function replayedPath(
  plan: BranchPlan & { actions: readonly unknown[] },
  facts: EvaluationFacts,
  point: number,
): ReplayedPath {
  const decided = new Map<number, number>();
  const passed = new Set<number>();
  const out: number[] = [];
  for (let i = 0; i < plan.actions.length; i++) {
    // As the engine's runner: an action in an arm not taken is skipped before its waits, which
    // only that arm's runs pass (so a run down the other arm does not wait them).
    for (;;) {
      if (armNotTaken(plan, decided, i)) break;
      const next = nextControl(plan, i, passed, decided);
      if (!next) {
        out.push(i);
        break;
      }
      if (next.kind === 'wait') passed.add(next.wait);
      else
        decided.set(
          next.branch,
          decideBranch(plan.branches![next.branch], { facts, timezone: plan.timezone, point }).arm,
        );
    }
  }
  return { actions: out, arms: decided, waits: [...passed] };
}

/** The actions of replayedPath alone. */
export function replayedActions(
  plan: BranchPlan & { actions: readonly unknown[] },
  facts: EvaluationFacts,
  point: number,
): number[] {
  return replayedPath(plan, facts, point).actions;
}
