// Matching decides and writes nothing (matching-never-writes in .dependency-cruiser.cjs): for one
// stored event, what it needs (its plan), then the facts its rules are evaluated against (the
// payload or one CRM read, the previous state, change names) and the runs they decide (NewRun[]).
// The events worker (pipeline/events-worker/event-pipeline.service.ts) does the rest: the mirror,
// the waits, the ledger, admission and dispatch.
import { Injectable } from '@nestjs/common';
import { RuleControlsService } from '../../runtime/rule-controls/rule-controls.service';
import type { PreviousCapture } from '../contact-mirror/mirror-event-upserts';
import type { NewRun } from '../admission/create-run';
import type { InboxEventRow } from '../../persistence/ledger/inbox-events.repository';
import type { CompiledRuleSet } from '../../language/matching/compiled-rule-set';
import type { EvaluationFacts, RuleEvaluation } from '../../language/rules/format/rule-types';
import { isContactGone, planEvent, type EventPlan, type StoredEvent } from './event-plan';
import { EventFactsService } from './event-facts.service';

/** What an event needs before it is matched: its plan, and whether the mirror upsert keeps the contact before it. */
export interface MatchingPlan extends EventPlan {
  /** A rule listening to the kind uses a change operator: the facts carry the previous state. */
  needsPrevious: boolean;
  /** Filled by the mirror upsert (same statement) when the event does not keep a previous state yet. */
  capture: PreviousCapture | undefined;
}

/** The decision: the runs (matched or not, each with its explain trace), or the contact is gone. */
export type EventMatch = { outcome: null; runs: NewRun[] } | { outcome: 'contact_gone' };

@Injectable()
export class EventMatcher {
  constructor(
    private readonly controls: RuleControlsService,
    private readonly facts: EventFactsService,
  ) {}

  plan(row: InboxEventRow, event: StoredEvent, ruleSet: CompiledRuleSet): MatchingPlan {
    const plan = planEvent(event, ruleSet.rulesForEvent(row.type).length);
    // Change operators compare with the contact before this event: kept on the event by the
    // mirror upsert itself (same statement), only when a rule listening to the kind uses one.
    const needsPrevious = plan.match && ruleSet.needsPrevious(row.type);
    const capture = needsPrevious && !row.previous_contact ? { inboxEventId: row.id } : undefined;
    return { ...plan, needsPrevious, capture };
  }

  /** Called after the mirror upsert (`mirrorSkipped`: why it did not take the payload), for a plan that matches. */
  async match(
    row: InboxEventRow,
    event: StoredEvent,
    ruleSet: CompiledRuleSet,
    plan: MatchingPlan,
    mirrorSkipped: string | null,
    correlationId: string,
  ): Promise<EventMatch> {
    let facts: EvaluationFacts;
    try {
      facts = await this.facts.factsFor(
        event,
        row.contact_id!,
        ruleSet,
        plan.needsPrevious
          ? { kept: row.previous_contact, captured: plan.capture?.previous, mirrorSkipped }
          : undefined,
      );
    } catch (err) {
      if (!isContactGone(err)) throw err;
      // Deleted in the CRM since the event: nothing to act on, and no attempt would change that.
      return { outcome: 'contact_gone' };
    }
    const evaluations = await ruleSet.evaluateEvent(facts);
    return { outcome: null, runs: this.newRuns(row, event, ruleSet, evaluations, facts, correlationId) };
  }

  private newRuns(
    row: InboxEventRow,
    event: StoredEvent,
    ruleSet: CompiledRuleSet,
    evaluations: RuleEvaluation[],
    facts: EvaluationFacts,
    correlationId: string,
  ): NewRun[] {
    return evaluations.flatMap((evaluation) => {
      const rule = ruleSet.rule(evaluation.ruleId);
      if (!rule) return [];
      const run: NewRun = {
        triggerKey: `event:${row.id}`,
        triggerAt: row.event_at,
        inboxEventId: row.id,
        eventType: row.type,
        // An operator's replay is deliberate: loop protection does not hold it back.
        replay: event.replay,
        priority: 'interactive',
        rule,
        ruleSetVersion: ruleSet.version,
        ...(ruleSet.commit ? { rulesCommit: ruleSet.commit } : {}),
        contactId: row.contact_id!,
        // Operators' switches (console): paused records `paused`; forced shadow acts like shadow.
        evaluation: { ...evaluation, mode: this.controls.modeOf(rule) },
        paused: this.controls.isPaused(rule.id),
        contactSnapshot: facts.contact ?? null,
        correlationId,
      };
      return [run];
    });
  }
}
