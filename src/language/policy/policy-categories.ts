// Message categories and suppression of the messaging policy (policy.yaml `categories:`,
// `default-category:`, `suppress:`). A category gives its messages their own caps, quiet hours and
// over-cap / in-quiet-hours behaviour; a suppression is a condition on the contact (a tag, a field,
// membership of a segment rule's segment) no message of
// the categories it names may cross (all categories when it names none). Precedence, in the order
// judgeMessage (judge-message.ts) applies it:
//   1. suppression: a global one holds every message, a scoped one the messages of its categories
//      (a transactional message crosses a marketing opt-out, never a global one); no exemption;
//      then the global control group (`holdout:`, holdout.ts) for the categories it covers;
//   2. the reply grace (exempt-replies-within): caps and quiet hours do not apply;
//   3. the category's quiet days (holiday calendars), then its quiet hours, then 4. its caps.
// Pure.
import type { MessagingPolicy, PolicyCap, QuietHours } from './messaging-policy';
import { contactInSegment } from '../segment-filters/contact-in-segment';
import type { RuleSegmentFilters } from '../segment-filters/resolved-filters';

/** A category as written; an absent key takes the policy's top-level value. */
export interface CategoryRules {
  /** Its own caps, counting this category's messages only. Absent: the policy's caps, shared. */
  caps?: PolicyCap[];
  /** Its own quiet hours; `null`: none (e.g. transactional). Absent: the policy's. */
  quietHours?: QuietHours | null;
  overCap?: 'skip' | 'defer';
  inQuietHours?: 'defer' | 'skip';
  /** Its own quiet days (calendar names); `null`: none. Absent: the policy's. */
  quietDays?: string[] | null;
}

/** A condition on the contact; every key given must hold. */
export interface Suppression {
  /** How the reason's detail names it: as written (`tag opted-out`). */
  name: string;
  /** A tag name the contact carries. */
  tag?: string;
  /** A custom field (fieldKey): equal to `equals` when given, else set (not null, false or ""). */
  field?: string;
  equals?: string | number | boolean;
  /** A segment rule's segment (its `segment.name`, else the rule's id): the contact is a member. */
  segment?: string;
  /** That segment's filters, linked at load (link-policy-segments.ts); judged on the contact at `now`. */
  filters?: RuleSegmentFilters;
  /** The categories it holds; absent: every category (a global suppression). */
  categories?: string[];
}

/** The category of a message that declares none. */
export const DEFAULT_CATEGORY = 'default';

/** What the policy reads of the contact. */
export interface PolicyContact {
  /** For the global control group (holdout.ts). */
  id?: string;
  customFields?: Record<string, unknown>;
  /** Tag names. */
  tags?: readonly string[];
  /** The contact as read (CRM contact, test contact, mirrored contact): for segment suppressions. */
  record?: Record<string, unknown>;
}

/** A customer message that went: when, and its category (absent: the default category). */
export interface SentMessage {
  at: Date;
  category?: string;
}

export function categoryOf(policy: MessagingPolicy, declared: string | undefined): string {
  return declared ?? policy.defaultCategory ?? DEFAULT_CATEGORY;
}

/** The first suppression holding a message of `category` to this contact, if any. */
export function suppressionFor(
  policy: MessagingPolicy,
  contact: PolicyContact,
  category: string,
  now: Date,
): Suppression | undefined {
  return (policy.suppress ?? []).find(
    (s) => (!s.categories || s.categories.includes(category)) && holds(s, contact, now),
  );
}

function holds(s: Suppression, contact: PolicyContact, now: Date): boolean {
  if (s.tag !== undefined && !(contact.tags ?? []).includes(s.tag)) return false;
  if (s.field !== undefined) {
    const v = contact.customFields?.[s.field];
    if (s.equals !== undefined ? v !== s.equals : v === undefined || v === null || v === false || v === '')
      return false;
  }
  // A segment not linked to its filters (never, once loaded) holds nobody rather than everybody.
  if (s.segment !== undefined && !(s.filters && contactInSegment(s.filters, contact.record, now)))
    return false;
  return s.tag !== undefined || s.field !== undefined || s.segment !== undefined;
}

/** The policy as a message of `category` meets it: its caps, quiet hours and behaviours. */
export function policyForCategory(policy: MessagingPolicy, category: string): MessagingPolicy {
  const own = policy.categories?.[category];
  if (!own) return policy;
  const { quietHours, quietDays, ...rest } = policy;
  const quiet = own.quietHours === undefined ? quietHours : (own.quietHours ?? undefined);
  const days = own.quietDays === undefined ? quietDays : (own.quietDays ?? undefined);
  return {
    ...rest,
    ...(days ? { quietDays: days } : {}),
    caps: own.caps ?? policy.caps,
    overCap: own.overCap ?? policy.overCap,
    inQuietHours: own.inQuietHours ?? policy.inQuietHours,
    ...(quiet ? { quietHours: quiet } : {}),
  };
}

/**
 * The messages a category's caps count: its own when it has its own caps, else those of every
 * category sharing the policy's caps.
 */
export function countedFor(policy: MessagingPolicy, category: string, sent: readonly SentMessage[]): Date[] {
  const ownCaps = (c: string) => policy.categories?.[c]?.caps !== undefined;
  const pool = (c: string) => (ownCaps(c) ? c : '');
  const mine = pool(category);
  return sent.filter((m) => pool(categoryOf(policy, m.category)) === mine).map((m) => m.at);
}

/** The contact as the policy reads it, from a CRM contact or a fact (tags as objects or names). */
export function policyContactOf(contact: Record<string, unknown> | undefined): PolicyContact {
  const fields = contact?.customFields;
  const tags = Array.isArray(contact?.tags)
    ? (contact.tags as unknown[])
        .map((t) => (typeof t === 'string' ? t : (t as { name?: unknown } | null)?.name))
        .filter((n): n is string => typeof n === 'string')
    : [];
  return {
    ...(typeof contact?.id === 'string' ? { id: contact.id } : {}),
    ...(fields && typeof fields === 'object' ? { customFields: fields as Record<string, unknown> } : {}),
    tags,
    ...(contact ? { record: contact } : {}),
  };
}

/** The category an action declares (`category:` beside it, or its rule's, stamped at load). */
export function declaredCategory(action: unknown): string | undefined {
  const c = (action as { category?: unknown } | null)?.category;
  return typeof c === 'string' ? c : undefined;
}
