// The decisions a run meets before each action, shared by the offline simulation (run-timeline.ts)
// and the engine's runner (src/pipeline/execution/timing/): a wait step to sleep through, a window that is closed
// (wait for it or skip), a limit period that is full, an `unless` when a wait ends, an event that
// ends a wait (`until`). Pure; the callers decide how to sleep (a clock or a delayed job).
import { compileConditions, type ConditionEvaluator } from '../../matching/compile-conditions';
import type { EvaluationFacts, RuleDefinition, RuleLimit, WaitStep, WaitUntil } from '../format/rule-types';
import { goalWindowMs } from './goal-window';
import { describeWindow, isOpen, nextOpening, type TimeWindow } from './time-window';

/** What of a rule decides when its actions happen: JSON, so a run keeps the plan it started with. */
export type TimingPlan = Pick<
  RuleDefinition,
  'timezone' | 'waits' | 'window' | 'actionWindows' | 'limit' | 'branches' | 'goal' | 'goalWithinMs'
> & {
  /** Rules with a split: the version the arm's hash reads (the run's plan, not the rule's latest). */
  ruleVersion?: string;
};

export type Gate =
  | { kind: 'go' }
  /** A `- wait:` step before this action, not passed yet. */
  | { kind: 'wait'; wait: WaitStep; until: Date }
  /** The rule's or the action's window is closed and says `outside: wait`. */
  | { kind: 'closed'; scope: 'rule' | 'action'; window: TimeWindow; until: Date }
  /** The rule's window is closed and says `outside: skip`: the run ends. */
  | { kind: 'skip-run'; window: TimeWindow; why: string }
  /** The action's own window is closed and says `outside: skip`: the run goes on without it. */
  | { kind: 'skip-action'; window: TimeWindow; why: string };

/** The timing parts of a rule, or undefined when it has none (most rules: nothing to store). */
export function timingPlanOf(rule: RuleDefinition): TimingPlan | undefined {
  const { waits, window, actionWindows, limit, branches, goal } = rule;
  if (!waits && !window && !actionWindows && !limit && !branches && !goal) return undefined;
  return {
    ...(rule.timezone ? { timezone: rule.timezone } : {}),
    ...(waits ? { waits } : {}),
    ...(window ? { window } : {}),
    ...(actionWindows ? { actionWindows } : {}),
    ...(limit ? { limit } : {}),
    ...(branches ? { branches } : {}),
    ...(goal ? { goal, goalWithinMs: goalWindowMs(rule) } : {}),
    ...(branches?.some((b) => b.kind === 'split') ? { ruleVersion: rule.version } : {}),
  };
}

/** Before action `action` at `now`, given which waits the run has passed already. */
export function gateBefore(
  plan: TimingPlan,
  action: number,
  passed: (wait: WaitStep) => boolean,
  now: Date,
): Gate {
  const wait = plan.waits?.find((w) => w.beforeAction === action && !passed(w));
  if (wait) return { kind: 'wait', wait, until: new Date(now.getTime() + wait.ms) };
  if (plan.window && !isOpen(plan.window, now)) {
    const window = plan.window;
    return window.outside === 'skip'
      ? { kind: 'skip-run', window, why: `outside the window ${describeWindow(window)}` }
      : { kind: 'closed', scope: 'rule', window, until: nextOpening(window, now) };
  }
  const own = plan.actionWindows?.find((w) => w.action === action)?.window;
  if (own && !isOpen(own, now)) {
    return own.outside === 'skip'
      ? { kind: 'skip-action', window: own, why: `outside the window ${describeWindow(own)}` }
      : { kind: 'closed', scope: 'action', window: own, until: nextOpening(own, now) };
  }
  return { kind: 'go' };
}

/** Limits count in fixed periods of `per` (aligned to the epoch): the period of `now` and when the next starts. */
export function limitPeriod(limit: RuleLimit, now: Date): { period: number; nextStart: Date } {
  const period = Math.floor(now.getTime() / limit.perMs);
  return { period, nextStart: new Date((period + 1) * limit.perMs) };
}

const compiled = new WeakMap<object, ConditionEvaluator>();

function conditionsPass(node: Record<string, unknown>, timezone: string | undefined, facts: EvaluationFacts) {
  let evaluate = compiled.get(node);
  if (!evaluate) {
    evaluate = compileConditions(node, timezone).evaluate;
    compiled.set(node, evaluate);
  }
  return evaluate(facts, []);
}

/** A wait's `unless`, on the contact as it is when the wait ends: true cancels the rest of the run. */
export function unlessHolds(wait: WaitStep, timezone: string | undefined, facts: EvaluationFacts): boolean {
  return wait.unless !== undefined && conditionsPass(wait.unless, timezone, facts);
}

/** A rule's `goal`, on the facts of a later event about the contact. */
export function goalMet(
  goal: Record<string, unknown>,
  timezone: string | undefined,
  facts: EvaluationFacts,
): boolean {
  return conditionsPass(goal, timezone, facts);
}

/**
 * Whether a later event ends a wait (`until`). `triggerConversationId` is the conversation of the
 * message that started the run (for `same: conversation`).
 */
export function untilMatches(
  until: WaitUntil,
  timezone: string | undefined,
  facts: EvaluationFacts,
  triggerConversationId: unknown,
): boolean {
  if (!until.events.includes(facts.event.type)) return false;
  if (until.sameConversation && facts.message?.conversationId !== triggerConversationId) return false;
  return !until.where || conditionsPass(until.where, timezone, facts);
}
