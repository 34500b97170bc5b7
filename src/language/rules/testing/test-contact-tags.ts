// Rule tests write a contact's tags as the CRM shows them (`{ id, name }`) or, as people write
// them, by name (`tags: [vip]`). A name becomes a tag with that name and an id derived from it, so
// hasTag, added / removed and the explain lines read it (before, `[vip]` was read as a tag with
// no name: `[] → [null]`). A uuid stays an id. Pure.
import { createHash } from 'node:crypto';
import { isUuid } from '@crm-rules/crm-contract';

/** A stable uuid-shaped id for a tag named in a test (the same name, the same id). */
export function testTagId(name: string): string {
  const h = createHash('sha256').update(`tag\u0000${name.toLowerCase()}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The contact with each tag written as a name turned into `{ id, name }`; other values unchanged. */
export function withTagObjects<T extends Record<string, unknown>>(contact: T): T {
  if (!Array.isArray(contact.tags) || !contact.tags.some((t) => typeof t === 'string')) return contact;
  const tags = contact.tags.map((t: unknown) =>
    typeof t !== 'string' ? t : isUuid(t) ? { id: t } : { id: testTagId(t), name: t },
  );
  return { ...contact, tags };
}
