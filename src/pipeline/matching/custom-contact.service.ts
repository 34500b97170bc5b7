// Finds (optionally creates) the CRM contact of a custom source's event, in the events worker:
// the intake never calls the CRM. A contact that cannot be found is a final, visible outcome
// of the event (contact_not_found with its reason), not a failure to retry.
import { Injectable } from '@nestjs/common';
import { CrmGateway } from '../../crm/crm-gateway.service';
import { readPointer, type CustomSource } from '../../language/rules/custom-sources';
import { isContactGone } from './event-failure';
import { contactKeyOf, pickContact } from './custom-contact';

export type ContactLookup = { ok: true; contactId: string } | { ok: false; reason: string };

/** Search results read to find the exact match (the search also matches substrings). */
const SEARCH_PAGE = 20;

@Injectable()
export class CustomContactService {
  constructor(private readonly gateway: CrmGateway) {}

  async find(source: CustomSource, data: unknown, correlationId: string): Promise<ContactLookup> {
    const key = contactKeyOf(source, data);
    if (!key.ok) return key;
    const opts = { priority: 'interactive' as const, correlationId };
    if (key.by === 'id') {
      try {
        return { ok: true, contactId: (await this.gateway.getContact(key.value, opts)).id };
      } catch (err) {
        if (isContactGone(err)) return { ok: false, reason: `no CRM contact has id ${key.value}` };
        throw err;
      }
    }
    const page = await this.gateway.listContacts({ search: key.value, limit: SEARCH_PAGE }, opts);
    const pick = pickContact(key, page.data);
    if (pick.ok) return { ok: true, contactId: pick.contact.id };
    // Created only when none matches (several is a conflict for a person to settle).
    if (!source.contact.create || key.by !== 'phone' || pick.exactMatches > 0)
      return { ok: false, reason: pick.reason };
    // A retry after a create whose answer was lost finds the contact by the search above.
    const named = source.contact['name-from'] ? readPointer(data, source.contact['name-from']) : undefined;
    const name = typeof named === 'string' && named.trim() ? named.trim().slice(0, 200) : undefined;
    const created = await this.gateway.createContact({ phone: key.value, ...(name ? { name } : {}) }, opts);
    return { ok: true, contactId: created.id };
  }
}
