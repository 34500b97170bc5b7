// The path one run of a rule takes in an offline replay (forecast, diff): the actions it does, the
// arm each branch it reaches takes (if / switch on the facts, a split by the engine's own hash,
// src/language/rules/gates/branch-plan.ts) and how long after the trigger each action comes (the waits
// passed before it). A wait's outcome is taken as `on-timeout`: no later event is known. Pure.
import { replayedPath, splitPoint } from '../../language/rules/gates/branch-plan';
import { heldByControlArm } from '../../language/rules/gates/control-hold';
import type { EvaluationFacts, RuleDefinition } from '../../language/rules/format/rule-types';

export interface RunPath {
  /** Indexes of the actions done, ascending. */
  actions: number[];
  /** Branch index → arm index taken, for every branch the run reached. */
  arms: ReadonlyMap<number, number>;
  /** Per action index: the time spent in the waits passed before it. */
  delayMs: (action: number) => number;
  /** Why the action is not sent: a customer message after a control arm taken (control-hold.ts). */
  controlHeld: (action: number) => string | undefined;
}

type PathRule = Pick<RuleDefinition, 'id' | 'version' | 'actions' | 'waits' | 'branches' | 'timezone'>;

export function runPath(rule: PathRule, facts: EvaluationFacts, contactId: string): RunPath {
  const waits = rule.waits ?? [];
  if (!rule.branches) {
    // Without branches every action is done, after every wait written before it.
    return {
      actions: rule.actions.map((_a, i) => i),
      arms: new Map(),
      delayMs: (action) => waitedBefore(waits, waits.keys(), action),
      controlHeld: () => undefined,
    };
  }
  const path = replayedPath(rule, facts, splitPoint(rule.id, rule.version, contactId));
  return {
    actions: path.actions,
    arms: path.arms,
    delayMs: (action) => waitedBefore(waits, path.waits.values(), action),
    controlHeld: (action) => heldByControlArm(rule, path.arms, action, rule.actions[action].type),
  };
}

function waitedBefore(
  waits: NonNullable<RuleDefinition['waits']>,
  passed: Iterable<number>,
  action: number,
): number {
  let ms = 0;
  for (const w of passed) if (waits[w].beforeAction <= action) ms += waits[w].ms;
  return ms;
}
