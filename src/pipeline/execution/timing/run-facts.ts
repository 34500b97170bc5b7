// The facts a run's later decisions and actions read (a woken wait's `unless`, a branch, an
// action's templates): its trigger, or the event that ended its latest wait with on-event (kept on
// the run's timeline, so a retry or a restart reads the same one), the contact as it is now, the
// time now. Pure.
import type { RunRow } from '../../../persistence/ledger/run-rows';
import { timelineProgress, type TimelineEntry } from '../../../persistence/ledger/run-timeline-entry';
import type { EvaluationFacts } from '../../../language/rules/format/rule-types';
import { failureFactsAt } from '../../../language/rules/gates/failure-facts';

/** The facts a woken run's `unless` reads: its trigger, the contact as it is now, the time now. */
export function factsOf(run: RunRow, contact: Record<string, unknown>, now: Date): EvaluationFacts {
  const payload = (run.event_payload ?? { type: 'sweep', data: {} }) as EvaluationFacts['event'];
  const facts: EvaluationFacts = { event: payload, contact, now };
  if (String(payload.type ?? '').startsWith('message.'))
    facts.message = payload.data as Record<string, unknown>;
  return facts;
}

/** The event that ended the run's latest wait with on-event (the highest wait passed by one), if any. */
export function awaitedEventOf(timeline: readonly TimelineEntry[] | null | undefined) {
  const ended = [...timelineProgress(timeline ?? []).endedByEvent.entries()];
  return ended.sort((a, b) => b[0] - a[0])[0]?.[1] as EvaluationFacts['event'] | undefined;
}

/**
 * Trigger facts, unless a wait ended with its awaited event: then event.* / message.* read that one.
 * `at`: the action the branch reading them comes before; inside an on-failure arm failure.* is set.
 */
export function factsAfterWaits(
  run: RunRow,
  contact: Record<string, unknown>,
  now: Date,
  at?: number,
): EvaluationFacts {
  const failure =
    at === undefined ? undefined : failureFactsAt(run.timing, run.timeline, at, { branch: true });
  const facts = { ...factsOf(run, contact, now), ...(failure ? { failure } : {}) };
  const event = awaitedEventOf(run.timeline);
  if (!event) return facts;
  const { message: _trigger, ...rest } = facts;
  return {
    ...rest,
    event,
    ...(event.type.startsWith('message.') ? { message: event.data as Record<string, unknown> } : {}),
  };
}

/**
 * What action `action`'s templates read ({{contact.*}}, {{event.*}}, {{message.*}}, {{steps.*}},
 * {{failure.*}} in an on-failure arm): the trigger, or after a wait that ended with its event
 * (on-event and below it), that event.
 */
export function templateFactsOf(
  run: RunRow,
  contact: unknown,
  steps: Record<string, Record<string, unknown>>,
  action?: number,
) {
  const event = awaitedEventOf(run.timeline) ?? run.event_payload ?? undefined;
  const message = String(event?.type ?? '').startsWith('message.') ? event?.data : undefined;
  const failure = action === undefined ? undefined : failureFactsAt(run.timing, run.timeline, action);
  return { contact, event, message, steps, ...(failure ? { failure } : {}) };
}
