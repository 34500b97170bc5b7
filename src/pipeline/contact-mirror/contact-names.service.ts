import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ContactMirrorRepository, type ContactName } from './contact-mirror.repository';
import { contactSearchTerm } from './contact-search-term';

export type { ContactName } from './contact-mirror.repository';

/**
 * Names, phones and emails of contacts, from the mirror: what the console shows beside every
 * contact id, and its search by name, phone or email. Reads only; a contact the mirror does not
 * hold (not synced yet, deleted) is simply absent and shows as its id.
 */
@Injectable()
export class ContactNamesService {
  private readonly contacts: ContactMirrorRepository;

  constructor(dataSource: DataSource) {
    this.contacts = new ContactMirrorRepository(dataSource);
  }

  async of(ids: readonly string[]): Promise<Map<string, ContactName>> {
    return new Map((await this.contacts.names(ids)).map((c) => [c.id, c]));
  }

  async one(id: string): Promise<ContactName | undefined> {
    return (await this.of([id])).get(id);
  }

  /** Contacts whose name, phone or email contains what was typed (contactSearchTerm), by name. */
  async search(raw: unknown, limit = 50): Promise<ContactName[]> {
    const term = contactSearchTerm(raw);
    return term ? this.contacts.search(term, limit) : [];
  }
}
