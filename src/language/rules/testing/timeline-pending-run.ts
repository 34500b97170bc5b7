// A run in the offline timeline (rule tests' simulated clock): where it stands, and the facts its
// steps read after a wait that an event ended. Pure.
import type { EvaluationFacts, RuleDefinition, WaitStep } from '../format/rule-types';

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
}

/** After a wait ended by its event: event.* / message.* read that event. */
export function withAwaited(run: PendingRun, facts: EvaluationFacts): EvaluationFacts {
  if (!run.awaited) return facts;
  const { message: _trigger, ...rest } = facts;
  const message = run.awaited.type.startsWith('message.') ? run.awaited.data : undefined;
  return {
    ...rest,
    event: run.awaited,
    ...(message ? { message: message as Record<string, unknown> } : {}),
  };
}
