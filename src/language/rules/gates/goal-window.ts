// A rule's `goal`: its conditions and its window. `goal: <conditions>` is short for
// `goal: { if: <conditions>, within: 7d }`: while a run of the rule waits, a later event meeting
// the goal ends it (goal_reached); after the run succeeded, an event meeting it within the window
// records a conversion on the run (no CRM write, the run stays succeeded). Pure.
import { checkConditions } from '../checks/check-conditions';
import { parseDuration } from '../format/durations';
import { isPlainObject, type ProblemCollector } from '../format/problem-collector';

/** How long after a run succeeded its goal still converts, when the rule does not say (7 days). */
export const DEFAULT_GOAL_WINDOW_MS = 7 * 24 * 3_600_000;

/** The long form `{ if: ..., within: ... }` (a condition has no `if` key). */
const isLongForm = (raw: unknown): raw is Record<string, unknown> => isPlainObject(raw) && 'if' in raw;

export function checkGoal(
  raw: unknown,
  ctx: ProblemCollector,
): { goal?: Record<string, unknown>; goalWithinMs?: number } {
  if (raw === undefined) return {};
  if (!isLongForm(raw)) return { goal: checkConditions(raw, ctx, undefined, ['goal']) };
  const goal = checkConditions(raw.if, ctx, undefined, ['goal', 'if']);
  const goalWithinMs = raw.within === undefined ? undefined : parseDuration(raw.within);
  return { goal, ...(goalWithinMs !== undefined ? { goalWithinMs } : {}) };
}

/** The window a run's plan keeps: the rule's `within`, else the default. */
export const goalWindowMs = (rule: { goalWithinMs?: number }) => rule.goalWithinMs ?? DEFAULT_GOAL_WINDOW_MS;
