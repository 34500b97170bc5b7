// A run in the offline timeline (rule tests' simulated clock): where it stands, and the facts its
// steps read after a wait that an event ended. Pure.
import type { EvaluationFacts, RuleDefinition, WaitStep } from '../format/rule-types';
import { failureFactsAt, type FailureEntry } from '../gates/failure-facts';

export interface PendingRun {
  rule: RuleDefinition;
  next: number; // index of the next action
  wakeAt?: number; // set while the run waits
  waiting?: WaitStep; // the wait in progress, if the run waits for one
  passed: Set<WaitStep>;
  started: boolean; // counted against the limit
  /** The triggering event's facts: a woken run reads them with the contact's fresh state. */
  trigger: EvaluationFacts;
  /** Branches decided (index -> arm), the arms' labels in order, the event that ended a wait. */
  decided: Map<number, number>;
  path: string[];
  awaited?: EvaluationFacts['event'];
  /** The on-failure arms taken, with the failure each read (failure.*). */
  failures?: FailureEntry[];
}

/**
 * After a wait ended by its event: event.* / message.* read that event. Inside an on-failure arm:
 * failure.* reads the failed action's (`branch`: for a branch before the next action).
 */
export function withAwaited(
  run: PendingRun,
  input: EvaluationFacts,
  { branch = false } = {},
): EvaluationFacts {
  const failure = failureFactsAt(run.rule, run.failures, run.next, { branch });
  const facts = failure ? { ...input, failure } : input;
  if (!run.awaited) return facts;
  const { message: _trigger, ...rest } = facts;
  const message = run.awaited.type.startsWith('message.') ? run.awaited.data : undefined;
  return {
    ...rest,
    event: run.awaited,
    ...(message ? { message: message as Record<string, unknown> } : {}),
  };
}
