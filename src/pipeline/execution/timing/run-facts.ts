// The facts a run's later decisions read (a woken wait's `unless`, a branch): its trigger, the
// contact as it is now, the time now. Pure.
import type { RunRow } from '../../../persistence/ledger/run-rows';
import type { EvaluationFacts } from '../../../language/rules/rule-types';

/** The facts a woken run's `unless` reads: its trigger, the contact as it is now, the time now. */
export function factsOf(run: RunRow, contact: Record<string, unknown>, now: Date): EvaluationFacts {
  const payload = (run.event_payload ?? { type: 'sweep', data: {} }) as EvaluationFacts['event'];
  const facts: EvaluationFacts = { event: payload, contact, now };
  if (String(payload.type ?? '').startsWith('message.'))
    facts.message = payload.data as Record<string, unknown>;
  return facts;
}
