// Finds, and when its source says `contact.create` creates, the CRM contact of a custom source's
// event, and keeps it on the event. Why in execution: creating a contact changes the CRM, and
// execution is the one stage that changes it (matching never writes: crm-writes-only-from-execution
// and matching-never-writes in .dependency-cruiser.cjs). It is a system step, not a run: it comes
// before matching (the rules need the contact to be evaluated), runs once per event in the events
// job (the id is kept on the event; a retry after a create whose answer was lost finds the contact
// by its search), and is asked for only when a rule listens to the event. The intake never calls
// the CRM. A contact that cannot be found is a final, visible outcome of the event
// (contact_not_found with its reason), not a failure to retry.
import { Injectable, Logger } from '@nestjs/common';
import { CrmWrites } from '../../../outbound/crm-gateway/crm-writes';
import { CrmApiError } from '../../../language/crm-terms/crm-errors';
import { readPointer, type CustomSource } from '../../../language/rules/format/custom-sources';
import { InboxEventRow, InboxEventsRepository } from '../../../persistence/ledger/inbox-events.repository';
import { contactKeyOf, pickContact } from './custom-contact';

export type ContactLookup = { ok: true; contactId: string } | { ok: false; reason: string };

/** Search results read to find the exact match (the search also matches substrings). */
const SEARCH_PAGE = 20;

@Injectable()
export class CustomContactResolver {
  private readonly logger = new Logger(CustomContactResolver.name);

  constructor(
    private readonly crm: CrmWrites,
    private readonly inbox: InboxEventsRepository,
  ) {}

  /**
   * The event with its contact id, kept on the stored event; undefined when there is none: the
   * event is then processed with outcome contact_not_found and the reason (nothing more to do).
   * `source` is undefined when the rule set no longer declares the event's source.
   */
  async resolve(
    row: InboxEventRow,
    source: { name: string; declared?: CustomSource },
    correlationId: string,
  ): Promise<InboxEventRow | undefined> {
    const found = source.declared
      ? await this.find(source.declared, row.payload.data, correlationId)
      : { ok: false as const, reason: `source ${source.name} is no longer declared` };
    if (!found.ok) {
      await this.inbox.markProcessed(row.id, 'contact_not_found', found.reason);
      this.logger.log(`event ${row.type} ${row.id}: contact not found, ${found.reason} [${correlationId}]`);
      return undefined;
    }
    await this.inbox.setContactId(row.id, found.contactId);
    return { ...row, contact_id: found.contactId };
  }

  private async find(source: CustomSource, data: unknown, correlationId: string): Promise<ContactLookup> {
    const key = contactKeyOf(source, data);
    if (!key.ok) return key;
    const opts = { priority: 'interactive' as const, correlationId };
    if (key.by === 'id') {
      try {
        return { ok: true, contactId: (await this.crm.getContact(key.value, opts)).id };
      } catch (err) {
        if (err instanceof CrmApiError && err.status === 404)
          return { ok: false, reason: `no CRM contact has id ${key.value}` };
        throw err;
      }
    }
    const page = await this.crm.listContacts({ search: key.value, limit: SEARCH_PAGE }, opts);
    const pick = pickContact(key, page.data);
    if (pick.ok) return { ok: true, contactId: pick.contact.id };
    // Created only when none matches (several is a conflict for a person to settle).
    if (!source.contact.create || key.by !== 'phone' || pick.exactMatches > 0)
      return { ok: false, reason: pick.reason };
    // A retry after a create whose answer was lost finds the contact by the search above.
    const named = source.contact['name-from'] ? readPointer(data, source.contact['name-from']) : undefined;
    const name = typeof named === 'string' && named.trim() ? named.trim().slice(0, 200) : undefined;
    const created = await this.crm.createContact({ phone: key.value, ...(name ? { name } : {}) }, opts);
    return { ok: true, contactId: created.id };
  }
}
