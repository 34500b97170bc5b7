// The facts a stored event's rules are evaluated against, built in one place for both readers: the
// events worker (EventMatcher, when the event is processed) and the explain on demand
// (EventExplainer, long after), so an explain cannot drift from the decision it explains.
import { Inject, Injectable } from '@nestjs/common';
import { ENGINE_CLOCK, type EngineClock } from '../../runtime/config/engine-clock';
import { CrmReads } from '../../outbound/crm-gateway/crm-reads';
import type { CompiledRuleSet } from '../../language/matching/compiled-rule-set';
import type { EvaluationFacts, PreviousState } from '../../language/rules/format/rule-types';
import { eventFacts, planEvent, previousStateOf, type StoredEvent } from './event-plan';
import { ChangeNamesService } from './change-names.service';

/** Where the previous state of a change operator comes from (see previousStateOf). */
export interface PreviousSources {
  /** Kept on the event row by an earlier attempt (or the mirror upsert). */
  kept: PreviousState | null;
  /** Captured by this attempt's mirror upsert. */
  captured?: PreviousState;
  /** Why the mirror did not take the payload, if it did not. */
  mirrorSkipped: string | null;
}

@Injectable()
export class EventFactsService {
  constructor(
    private readonly gateway: CrmReads,
    private readonly changeNames: ChangeNamesService,
    // `now` of the event's facts (conditions, calendars) is the engine's.
    @Inject(ENGINE_CLOCK) private readonly clock: EngineClock,
  ) {}

  /**
   * The payload's contact (contact.* events) or one CRM read (the guards need its current state),
   * and, when `previous` is given (a listening rule uses a change operator), the previous state and
   * the change names. A 404 from the read propagates: the caller decides what a gone contact means.
   */
  async factsFor(
    event: StoredEvent,
    contactId: string,
    ruleSet: CompiledRuleSet,
    previous?: PreviousSources,
  ): Promise<EvaluationFacts> {
    const contact =
      planEvent(event, 1).contactFrom === 'crm'
        ? ((await this.gateway.getContact(contactId, { priority: 'interactive' })) as unknown as Record<
            string,
            unknown
          >)
        : undefined;
    const facts = eventFacts(event, this.clock.now(), contact);
    if (previous) {
      facts.previous = previousStateOf(event, previous.kept, previous.captured, previous.mirrorSkipped);
      facts.names = await this.changeNames.resolverFor(ruleSet, event.type);
    }
    return facts;
  }
}
