// Tag helpers shared by add-tag and remove-tag.
import type { Contact, Uuid } from '@crm-rules/crm-contract';

export function hasTag(contact: Contact, tagId: Uuid): boolean {
  return contact.tags.some((t) => t.id === tagId);
}

export function tagLabel(contact: Contact, tagId: Uuid): string {
  const name = contact.tags.find((t) => t.id === tagId)?.name;
  return name ? `${name} (${tagId})` : tagId;
}
