// Why no rule acted on a stored event, rebuilt on demand (issue 35): an event no rule matched keeps
// only a compact decision on its row (which rule set judged it, how many rules listened), so its
// explain trace is recomputed here by the same evaluation the events worker ran: the stored
// payload, the previous contact kept on the event, the change names, the running rule set.
// Reads only (matching-never-writes): the admin API hands it the stored row.
import { Injectable } from '@nestjs/common';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import type { EventToExplain } from '../../persistence/ledger/inbox-event-views.repository';
import type { UnmatchedDecision } from '../../persistence/ledger/inbox-event.entity';
import type { ConditionTrace } from '../../language/rules/format/rule-types';
import { formatEvaluation } from '../../language/matching/format-explain';
import { planEvent, type StoredEvent } from './event-plan';
import { EventFactsService } from './event-facts.service';

export interface RuleExplain {
  ruleId: string;
  ruleVersion: string;
  matched: boolean;
  /** Each condition with the value it saw (and, for change operators, the value before). */
  trace: ConditionTrace[];
  /** As `crm-rules explain` prints it. */
  lines: string[];
}

export interface EventExplain {
  eventId: string;
  type: string;
  /** The decision stored when the event was processed (null: some rule matched, or not processed). */
  decision: UnmatchedDecision | null;
  /** The rule set the explain below was computed with (the running one). */
  ruleSet: string;
  /** Said plainly when the running rule set is not the one that judged the event, or a contact had to be read now. */
  notes: string[];
  rules: RuleExplain[];
}

@Injectable()
export class EventExplainer {
  constructor(
    private readonly rules: RuleSetService,
    private readonly facts: EventFactsService,
  ) {}

  /** `replay`: the row is an operator's replay (its key says so: the caller reads it). */
  async explain(row: EventToExplain, replay: boolean): Promise<EventExplain> {
    const ruleSet = await this.rules.loaded();
    const decision = row.unmatched ?? null;
    const notes: string[] = [];
    if (decision && decision.set !== ruleSet.version)
      notes.push(
        `judged by rule set ${decision.set}${decision.commit ? ` (${decision.commit})` : ''}; explained with the running set ${ruleSet.version}`,
      );
    const event: StoredEvent = {
      type: row.type,
      replay,
      contactId: row.contact_id,
      payload: row.payload,
    };
    const listening = ruleSet.rulesForEvent(row.type);
    if (listening.length === 0 || !row.contact_id)
      return { eventId: row.id, type: row.type, decision, ruleSet: ruleSet.version, notes, rules: [] };
    // A message event was evaluated against the contact the CRM had then, which is not kept: read now.
    if (planEvent(event, listening.length).contactFrom === 'crm')
      notes.push('the contact is as the CRM has it now, not as it was when the event was processed');
    const facts = await this.facts.factsFor(
      event,
      row.contact_id,
      ruleSet,
      ruleSet.needsPrevious(row.type) ? { kept: row.previous_contact, mirrorSkipped: null } : undefined,
    );
    const evaluations = await ruleSet.evaluateEvent(facts);
    return {
      eventId: row.id,
      type: row.type,
      decision,
      ruleSet: ruleSet.version,
      notes,
      rules: evaluations.flatMap((evaluation) => {
        const rule = ruleSet.rule(evaluation.ruleId);
        return rule
          ? [
              {
                ruleId: rule.id,
                ruleVersion: rule.version,
                matched: evaluation.matched,
                trace: evaluation.trace,
                lines: formatEvaluation(rule, evaluation),
              },
            ]
          : [];
      }),
    };
  }
}
