import type { Contact } from '@crm-rules/crm-contract';
import { MicroBatcher } from '../../persistence/sql/micro-batcher';
import type { PreviousState } from '../../language/rules/format/rule-types';
import type { ContactMirrorRepository } from './contact-mirror.repository';
import { newestRecords } from './mirror-records';

/** An event's upsert; with `inboxEventId`, the contact before it is kept on that event (change operators). */
export interface EventUpsert {
  contact: Contact;
  inboxEventId?: string;
}

/** A contact.* event's payload (contact.deleted carries little more than the id). */
export type EventContact = Pick<Contact, 'id'> & Partial<Contact>;

/** An event whose previous state is kept (change operators): applyEvent fills `previous`. */
export interface PreviousCapture {
  inboxEventId: string;
  previous?: PreviousState;
}

/**
 * The mirror upserts of the contact.created/updated events this process handles at once (the events
 * worker runs many jobs): one statement per batch instead of one per event, the events' round trips
 * being what bounds the worker. Same statement as a sync page (newer wins by updatedAt, tombstones
 * respected); within a batch the newest copy of a contact is the one written (newestRecords). A
 * batch Postgres refuses is written again contact by contact, so a bad payload fails only its own
 * event, with its own error. Only a batch with an event that needs its previous state uses the
 * statement that notes it: rule sets without change operators pay nothing for them.
 */
export class MirrorEventUpserts {
  private readonly batcher: MicroBatcher<EventUpsert, PreviousState | undefined>;

  constructor(mirror: ContactMirrorRepository) {
    this.batcher = new MicroBatcher<EventUpsert, PreviousState | undefined>(async (items) => {
      const records = JSON.stringify(newestRecords(items.map((i) => i.contact)));
      const noting = items.some((i) => i.inboxEventId);
      // Generation 0: a webhook update keeps the sync generation its row has.
      if (!noting) {
        await mirror.upsert(records, 0);
        return items.map(() => undefined);
      }
      const rows = await mirror.upsertNotingPrevious(records, JSON.stringify(previousInBatch(items)));
      const byEvent = new Map(rows.map((r) => [r.inbox_event_id, r.previous]));
      return items.map((i) => (i.inboxEventId ? byEvent.get(i.inboxEventId) : undefined));
    });
  }

  /** The previous state when `inboxEventId` is given (undefined when the event had one noted already). */
  upsert(item: EventUpsert): Promise<PreviousState | undefined> {
    return this.batcher.submit(item);
  }
}

/**
 * The events that need their previous state, each with the contact of the batch's earlier event
 * of the same contact (by updatedAt, as the upsert orders them) as `before`, or null: the first
 * one's previous state is the mirror's row.
 */
export function previousInBatch(items: readonly EventUpsert[]) {
  const order = items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => Date.parse(a.item.contact.updatedAt) - Date.parse(b.item.contact.updatedAt) || a.i - b.i);
  const last = new Map<string, Contact>();
  const out: { inboxEventId: string; contactId: string; updatedAt: string; before: Contact | null }[] = [];
  for (const { item } of order) {
    const id = String(item.contact.id);
    if (item.inboxEventId)
      out.push({
        inboxEventId: item.inboxEventId,
        contactId: id,
        updatedAt: item.contact.updatedAt,
        before: last.get(id) ?? null,
      });
    last.set(id, item.contact);
  }
  return out;
}
