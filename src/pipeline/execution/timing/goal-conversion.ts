// A rule's goal met after its run succeeded: the event path's decision for the runs enrolled for
// their goal (RunsRepository.goals.endableByEventOf), and the contact a goal reads on an event that carries
// none (message.*: the mirror's copy, read once and only when a run with a goal is there). Pure.
import type { RunRow } from '../../../persistence/ledger/run-rows';
import type { TimelineEntry } from '../../../persistence/ledger/run-timeline-entry';
import { goalMet } from '../../../language/rules/gates/run-gates';
import type { EvaluationFacts } from '../../../language/rules/format/rule-types';

/** The contact, where the event's facts lack it (from the mirror, as the events worker reads it). */
export type ContactLookup = () => Promise<Record<string, unknown> | undefined>;

/** The `goal_reached` entry when the event meets the goal of a run that succeeded; else undefined. */
export function conversionBy(run: RunRow, facts: EvaluationFacts): TimelineEntry | undefined {
  const goal = run.timing?.goal;
  if (run.status !== 'succeeded' || !goal || !goalMet(goal, run.timing?.timezone, facts)) return undefined;
  const type = facts.event.type;
  return {
    at: facts.now.toISOString(),
    step: 'goal_reached',
    reason: 'goal_reached',
    detail: `${type}${facts.event.id ? ` ${facts.event.id}` : ''} met the rule's goal after the run`,
  };
}

/**
 * The facts goals read: the event's own, plus the contact when the event carries none and one of
 * the runs has a goal. No read otherwise: the event path pays nothing for rules without goals.
 */
export async function factsForGoals(
  runs: readonly RunRow[],
  facts: EvaluationFacts,
  contactOf?: ContactLookup,
): Promise<EvaluationFacts> {
  if (facts.contact || !contactOf || !runs.some((run) => run.timing?.goal)) return facts;
  const contact = await contactOf();
  return contact ? { ...facts, contact } : facts;
}
