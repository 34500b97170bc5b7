// The contact as the mirror keeps it: every Contact field (docs/CRM-API.md §2.1) with dates parsed,
// the tag ids flattened for filtering and the country derived from the phone. Pure.
import type { Contact, Tag } from '@crm-rules/crm-contract';
import { countryOfPhone } from './phone-country';

/** Contact (crm-types) with the dates parsed, custom fields always present, and two derived members. */
export interface MirroredContact extends Omit<
  Contact,
  'customFields' | 'createdAt' | 'updatedAt' | 'lastInteractionAt'
> {
  /** Lower-case uuids, in the order the CRM listed the tags. */
  tagIds: string[];
  /** fieldKey → value as the CRM returns it (strings, option ids, arrays of option ids). */
  customFields: Record<string, unknown>;
  /** ISO 3166-1 alpha-2, derived from the phone; null when the number names no country. */
  country: string | null;
  createdAt: Date;
  updatedAt: Date;
  lastInteractionAt: Date | null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : v == null ? null : String(v));

/** Dates are cut to milliseconds here so the SQL and the pure evaluation see the same instant. */
function date(v: unknown, field: string, id: string): Date {
  // A Date: a contact already mirrored (a forecast's contacts file), read again.
  const d = v instanceof Date ? new Date(v.getTime()) : new Date(str(v));
  if (Number.isNaN(d.getTime()))
    throw new Error(`contact ${id}: ${field} is not a date (${JSON.stringify(v)})`);
  return d;
}

export function toMirroredContact(c: Contact): MirroredContact {
  const id = str(c.id);
  const tags: Tag[] = Array.isArray(c.tags)
    ? c.tags.map((t) => ({ id: str(t.id).toLowerCase(), name: str(t.name), color: str(t.color) }))
    : [];
  const phone = str(c.phone).replace(/\D/g, '');
  return {
    id,
    name: str(c.name),
    phone,
    email: strOrNull(c.email),
    avatar: strOrNull(c.avatar),
    notes: strOrNull(c.notes),
    status: c.status === 'archived' ? 'archived' : 'active',
    isBlocked: c.isBlocked === true,
    sourceMethod: str(c.sourceMethod),
    assigneeId: c.assigneeId ? str(c.assigneeId).toLowerCase() : null,
    stageId: c.stageId ? str(c.stageId).toLowerCase() : null,
    tagIds: tags.map((t) => t.id),
    tags,
    customFields: c.customFields && typeof c.customFields === 'object' ? { ...c.customFields } : {},
    country: countryOfPhone(phone),
    createdAt: date(c.createdAt, 'createdAt', id),
    updatedAt: date(c.updatedAt ?? c.createdAt, 'updatedAt', id),
    lastInteractionAt: c.lastInteractionAt ? date(c.lastInteractionAt, 'lastInteractionAt', id) : null,
  };
}

/** Years both JavaScript's ISO output and Postgres' timestamptz read back as the same instant. */
const STORABLE_YEARS = { min: 1, max: 9999 };

/**
 * Why the mirror cannot keep this contact payload (missing or bad dates, tags that are not
 * objects), or null when it can. Members the mirror does not know are no problem: they stay in
 * `raw`. The event that carried such a payload is still matched; only the mirror update is skipped.
 */
export function mirrorProblem(c: Contact): string | null {
  if (Array.isArray(c.tags) && c.tags.some((t) => !t || typeof t !== 'object'))
    return `contact ${str(c.id)}: tags must be a list of objects`;
  let m: MirroredContact;
  try {
    m = toMirroredContact(c);
  } catch (err) {
    return (err as Error).message;
  }
  for (const [field, d] of [
    ['createdAt', m.createdAt],
    ['updatedAt', m.updatedAt],
    ['lastInteractionAt', m.lastInteractionAt],
  ] as const) {
    const year = d?.getUTCFullYear();
    if (year !== undefined && (year < STORABLE_YEARS.min || year > STORABLE_YEARS.max))
      return `contact ${m.id}: ${field} is out of range (${d!.toISOString()})`;
  }
  return null;
}

/** Back to the API shape: the contact snapshot a sweep run's guards start from. */
export function toContact(m: MirroredContact): Contact {
  return {
    id: m.id,
    name: m.name,
    phone: m.phone,
    email: m.email,
    avatar: m.avatar,
    notes: m.notes,
    status: m.status,
    isBlocked: m.isBlocked,
    sourceMethod: m.sourceMethod,
    assigneeId: m.assigneeId,
    stageId: m.stageId,
    tags: m.tags.map((t) => ({ ...t })),
    customFields: { ...m.customFields },
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    lastInteractionAt: m.lastInteractionAt ? m.lastInteractionAt.toISOString() : null,
  };
}
