// Pure: what processing a stored event involves, and the facts its rules are evaluated against.
import { CrmApiError } from '../../language/crm-terms/crm-errors';
import { isCustomEventKind } from '../../language/rules/format/custom-event-kind';
import type { EvaluationFacts, PreviousState } from '../../language/rules/format/rule-types';

/** Events whose contact is the payload itself. */
const CONTACT_EVENTS = /^contact\./;

export interface StoredEvent {
  type: string;
  /** An operator's replay: a deliberate re-evaluation, not news about the contact. */
  replay: boolean;
  contactId: string | null;
  payload: { id?: string; type: string; createdAt?: string; data: Record<string, unknown> };
}

export interface EventPlan {
  /** contact.* events keep the mirror current whatever the rules listen to (replays do not: old news). */
  updateMirror: boolean;
  /** Unknown kinds, kinds no rule listens to and events without a contact are stored and acknowledged only. */
  match: boolean;
  /** Where the contact facts come from: the payload (contact.*) or one CRM read (message.* and others). */
  contactFrom: 'payload' | 'crm';
}

export function planEvent(event: StoredEvent, listeningRules: number): EventPlan {
  const contactEvent = CONTACT_EVENTS.test(event.type);
  return {
    updateMirror: contactEvent && !event.replay,
    match: listeningRules > 0 && event.contactId !== null,
    contactFrom: contactEvent ? 'payload' : 'crm',
  };
}

/**
 * The facts of an event: contact.* events carry the contact as their data; other events carry
 * their message (or other object) as data, and the contact comes from a CRM read (`readContact`),
 * which the guards of every action need anyway.
 */
export function eventFacts(
  event: StoredEvent,
  now: Date,
  readContact?: Record<string, unknown>,
): EvaluationFacts {
  const facts: EvaluationFacts = { event: event.payload, now };
  if (planEvent(event, 1).contactFrom === 'payload') {
    facts.contact = event.payload.data;
  } else {
    // A custom source's payload is its own (`event.data`), not a message.
    if (!isCustomEventKind(event.type)) facts.message = event.payload.data;
    facts.contact = readContact;
  }
  return facts;
}

/**
 * The previous state an event's change operators compare with: the one kept on the event (a retry
 * compares with what the first attempt saw), else the one captured with this attempt's mirror upsert.
 */
export function previousStateOf(
  event: StoredEvent,
  kept: PreviousState | null,
  captured: PreviousState | undefined,
  mirrorSkipped: string | null,
): PreviousState {
  if (kept) return kept;
  if (captured) return captured;
  if (event.replay) return { missing: 'an operator replay does not go through the mirror' };
  if (mirrorSkipped) return { missing: 'the mirror did not take this payload' };
  return { missing: 'not recorded for this event' };
}

/** The CRM no longer has the event's contact: nothing to match, not a failure (outcome contact_gone). */
export function isContactGone(err: unknown): boolean {
  return err instanceof CrmApiError && err.status === 404;
}
