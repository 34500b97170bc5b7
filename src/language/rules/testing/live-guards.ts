// The catalogue's guards as a rule test applies them (unless the case says `guards: off`): before
// a message, assign-first, then the message's guard (a blocked contact: `contact_blocked`; no
// assignee: `needs_assignee`), through the functions the engine's runner calls
// (catalogue/action-guards.ts), so a test cannot pass what the engine skips. Guards that need the
// CRM's state (`no_change`, a channel's status) are the forecast's: a test has no CRM, so only a
// message's guard is asked, with the action unresolved (no channel: nothing to check there). The
// writes that decide who may get a message (assign, unassign, block, unblock) change the test's
// contact for the actions after them, as the runner's local copy does. Pure.
import type { Contact } from '@crm-rules/crm-contract';
import type { SkipReason } from '../../catalogue/action-definition';
import { applyActionLocally, guardAction } from '../../catalogue/action-guards';
import { actionDefinition, type ResolvedAction } from '../../catalogue/catalogue';
import type { EvaluationFacts, RuleAction } from '../format/rule-types';

type TestContact = NonNullable<EvaluationFacts['contact']>;

/** Why an action a test lists was skipped, as the engine records it (action_results.error_code). */
export interface SkipOf {
  reason: SkipReason;
  detail: string;
}

/** The fields whose writes decide whether a message may go (the guards read them). */
const GUARDED_FIELDS = ['contact.assigneeId', 'contact.isBlocked'];

/**
 * The contact as the engine would read it during a test: the test's contact, with the writes the
 * rules made to the guarded fields on top (the CRM keeps them), until the test changes that field.
 */
export class GuardedContact {
  private written: Record<string, unknown> = {};

  /** The contact the guards see. */
  over(contact: TestContact | undefined): TestContact | undefined {
    return contact && { ...contact, ...this.written };
  }

  /** The test gives the contact anew (a later step): a field it changes is its own again. */
  changed(before: TestContact | undefined, after: TestContact | undefined): void {
    for (const key of Object.keys(this.written)) if (before?.[key] !== after?.[key]) delete this.written[key];
  }

  /**
   * Whether `action` goes for `contact` (as `over` gave it); when it goes, its writes to the
   * guarded fields are kept for the actions after it. Undefined: it goes.
   */
  guard(action: RuleAction, contact: TestContact | undefined): SkipOf | undefined {
    if (!contact) return undefined;
    const def = actionDefinition(action.type);
    let state = contact as unknown as Contact;
    const assignFirst = 'assignFirst' in action ? action.assignFirst : undefined;
    // As the runner does: assign-first assigns a contact with no assignee that is not blocked.
    if (def.messaging && assignFirst && !state.assigneeId && !state.isBlocked)
      state = this.write(state, { assigneeId: assignFirst });
    if (def.messaging) {
      const verdict = guardAction({ type: action.type } as ResolvedAction, state);
      if (!verdict.proceed) return { reason: verdict.reason, detail: verdict.detail };
      return undefined;
    }
    const writes = def.effect.writes?.(action as never);
    if (writes && GUARDED_FIELDS.includes(writes)) {
      // The member as written stands in for its id: the guards only ask whether there is one.
      const member = 'member' in action ? { memberId: action.member } : {};
      const after = applyActionLocally({ type: action.type, ...member } as ResolvedAction, state);
      const field = writes.slice('contact.'.length) as 'assigneeId' | 'isBlocked';
      this.write(state, { [field]: after[field] });
    }
    return undefined;
  }

  private write(state: Contact, fields: Record<string, unknown>): Contact {
    Object.assign(this.written, fields);
    return { ...state, ...fields } as Contact;
  }
}

/** ` skipped: needs_assignee (contact c1 has no assignee)`, for the diff and the explain lines. */
export const skipText = (skip: SkipOf | undefined): string =>
  skip ? `skipped: ${skip.reason} (${skip.detail})` : '';
