// Change operators in offline replays (`diff`, `forecast --events`): the previous state of a
// recorded contact.* event, as the engine would have had it. The export carries it when the engine
// kept it (a rule used a change operator then); otherwise the replay keeps its own mirror of the
// contacts the recorded events carried, so a contact's first event in the file has none. Syncs are
// not in the file: a contact the engine knew from a sync looks new here (first sight, no match). Pure.
import type { PreviousState } from '../../language/rules/format/rule-types';
import { contactIdOf, type RecordedEvent } from './recorded-events';

export class ReplayPrevious {
  private readonly contacts = new Map<string, Record<string, unknown>>();

  /** The event's previous state (contact.* events only); then the replay's mirror takes the event's contact. */
  previousFor(e: RecordedEvent): PreviousState | undefined {
    if (!e.type.startsWith('contact.')) return undefined;
    const id = contactIdOf(e);
    const before = this.contacts.get(id);
    if (e.type === 'contact.deleted') this.contacts.delete(id);
    else this.contacts.set(id, e.data);
    if (e.previous) return e.previous;
    return before ? { contact: before } : { missing: 'first sight of the contact in the recorded events' };
  }
}
