// Which CRM contact a custom source's event is about: the value its `contact.from` pointer names,
// read and normalised, and the pick among the CRM's search results. Pure: no Nest, no I/O.
import { isUuid } from '../../../outbound/crm-gateway/crm-http';
import type { Contact } from '@crm-rules/crm-contract';
import { readPointer, type CustomSourceDeclaration } from '../../../language/rules/format/custom-sources';

export type ContactKey =
  { ok: true; by: 'id' | 'phone' | 'email'; value: string } | { ok: false; reason: string };

/** The value to look the contact up by, or why there is none (recorded on the event). */
export function contactKeyOf(source: CustomSourceDeclaration, data: unknown): ContactKey {
  const { by, from } = source.contact;
  const raw = readPointer(data, from);
  if (typeof raw !== 'string' && typeof raw !== 'number')
    return { ok: false, reason: `the payload has no ${by} at ${from}` };
  const text = String(raw).trim();
  if (by === 'id')
    return isUuid(text)
      ? { ok: true, by, value: text.toLowerCase() }
      : { ok: false, reason: `${from} is not a contact id (uuid)` };
  if (by === 'phone') {
    // The CRM keeps digits only, with the country code (docs/CRM-API.md A2).
    const digits = text.replace(/[\s()+.-]/g, '');
    return /^\d{6,15}$/.test(digits)
      ? { ok: true, by, value: digits }
      : { ok: false, reason: `${from} is not a phone number` };
  }
  return /^[^\s@]+@[^\s@]+$/.test(text)
    ? { ok: true, by, value: text.toLowerCase() }
    : { ok: false, reason: `${from} is not an email address` };
}

export type ContactPick =
  { ok: true; contact: Contact } | { ok: false; reason: string; exactMatches: number };

/** The CRM's search matches substrings of name, phone and email: only an exact match counts, and only one. */
export function pickContact(key: Extract<ContactKey, { ok: true }>, found: readonly Contact[]): ContactPick {
  const exact = found.filter((c) =>
    key.by === 'phone'
      ? (c.phone ?? '').replace(/\D/g, '') === key.value
      : (c.email ?? '').toLowerCase() === key.value,
  );
  if (exact.length === 1) return { ok: true, contact: exact[0] };
  if (exact.length === 0)
    return { ok: false, reason: `no CRM contact has ${key.by} ${key.value}`, exactMatches: 0 };
  return {
    ok: false,
    reason: `${exact.length} CRM contacts have ${key.by} ${key.value}: none was picked`,
    exactMatches: exact.length,
  };
}
