import type { Contact } from '../crm/crm-types';
import { MicroBatcher } from '../db/micro-batcher';
import type { Queryable } from '../db/queryable';
import { newestRecords, UPSERT_CONTACTS_SQL } from './mirror-sql';

/**
 * The mirror upserts of the contact.created/updated events this process handles at once (the events
 * worker runs many jobs): one statement per batch instead of one per event, the events' round trips
 * being what bounds the worker. Same statement as a sync page (newer wins by updatedAt, tombstones
 * respected); within a batch the newest copy of a contact is the one written (newestRecords). A
 * batch Postgres refuses is written again contact by contact, so a bad payload fails only its own
 * event, with its own error.
 */
export class MirrorEventUpserts {
  private readonly batcher: MicroBatcher<Contact, void>;

  constructor(db: Queryable) {
    this.batcher = new MicroBatcher<Contact, void>(async (contacts) => {
      // Generation 0: a webhook update keeps the sync generation its row has.
      await db.query(UPSERT_CONTACTS_SQL, [JSON.stringify(newestRecords(contacts)), 0]);
      return contacts.map(() => undefined);
    });
  }

  upsert(contact: Contact): Promise<void> {
    return this.batcher.submit(contact);
  }
}
