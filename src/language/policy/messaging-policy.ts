// The organization's messaging policy (policy.yaml in the rules directory) and the decisions it
// makes before a customer-facing message goes out: caps per contact across all rules, quiet hours
// in the contact's or the organization's zone, holiday calendars. Pure, no Nest: the engine's
// gate (src/pipeline/execution/timing/policy-gate.service.ts) and the offline rule tests ask the same questions.
import { DateTime } from 'luxon';
import type { Holdout } from './holdout';
import type { CategoryRules, Suppression } from './policy-categories';

/** At most `max` messages to one contact in any rolling period of `perMs`. */
export interface PolicyCap {
  max: number;
  perMs: number;
  /** As written (`1d`), for reasons and docs. */
  per: string;
}

export interface QuietHours {
  /** Minutes after midnight; `to` <= `from` means the quiet hours run past midnight. */
  from: number;
  to: number;
  /** `contact`: the contact's zone (a custom field), else the organization's; or an IANA zone. */
  zone: 'contact' | string;
}

export interface MessagingPolicy {
  /** Content hash of the normalised policy: part of the rule set version. */
  hash: string;
  /** The organization's IANA zone (quiet hours with `zone: contact` fall back to it). */
  timezone: string;
  /** The custom field (fieldKey) holding a contact's IANA zone, when the CRM has one. */
  contactTimezoneField?: string;
  caps: PolicyCap[];
  /** A message over a cap: skipped (`policy_cap`) or deferred until the cap allows it. */
  overCap: 'skip' | 'defer';
  quietHours?: QuietHours;
  /** A message due in quiet hours: deferred to their end (default) or skipped (`quiet_hours`). */
  inQuietHours: 'defer' | 'skip';
  /** Replies to an inbound message at most this old are exempt from caps and quiet hours. */
  exemptRepliesWithinMs?: number;
  /** Named calendars: sorted YYYY-MM-DD dates. */
  calendars: Record<string, string[]>;
  /** Calendars (names in `calendars`) on whose dates no message goes: quiet days, like quiet hours. */
  quietDays?: string[];
  /** Message categories with their own caps / quiet hours (policy-categories.ts). */
  categories?: Record<string, CategoryRules>;
  /** The category of a message that declares none (default `default`). */
  defaultCategory?: string;
  /** Conditions on the contact no message (of the listed categories) may cross. */
  suppress?: Suppression[];
  /** The global control group: a stable share of contacts that gets no message (holdout.ts). */
  holdout?: Holdout;
}

/** What the gate does with one customer-facing message. */
export type PolicyDecision =
  | { kind: 'go'; exempt?: string }
  | { kind: 'skip'; reason: 'policy_cap' | 'quiet_hours' | 'suppressed' | 'holdout'; detail: string }
  | { kind: 'defer'; reason: 'policy_cap' | 'quiet_hours'; until: Date; detail: string };

export interface PolicyInput {
  now: Date;
  /** The zone quiet hours are read in (see `quietZone`). */
  zone: string;
  /** Start times of the messages the contact got within the longest cap period, newest first. */
  sentAt: readonly Date[];
  /** The inbound message the run answers, when its trigger is one (message.* from the customer). */
  inboundAt?: Date;
}

/** How many of a contact's messages a policy with categories reads (any cap's max is far below). */
const CATEGORY_ROWS = 1000;

/** The longest cap period and the largest max: how much of the ledger a decision needs. */
export function ledgerNeeds(policy: MessagingPolicy): { periodMs: number; rows: number } | undefined {
  const caps = [...policy.caps, ...Object.values(policy.categories ?? {}).flatMap((c) => c.caps ?? [])];
  if (caps.length === 0) return undefined;
  // With categories the newest rows may all be another category's: read the period (bounded).
  return {
    periodMs: Math.max(...caps.map((c) => c.perMs)),
    rows: policy.categories ? CATEGORY_ROWS : Math.max(...caps.map((c) => c.max)),
  };
}

/** Whether the policy can hold a message at all (no caps and no quiet hours: nothing to ask). */
export function policyApplies(policy: MessagingPolicy | undefined): policy is MessagingPolicy {
  return (
    !!policy &&
    (policy.caps.length > 0 ||
      policy.quietHours !== undefined ||
      (policy.suppress ?? []).length > 0 ||
      policy.holdout !== undefined ||
      (policy.quietDays ?? []).length > 0 ||
      Object.values(policy.categories ?? {}).some(
        (c) => (c.caps ?? []).length > 0 || c.quietHours || (c.quietDays ?? []).length > 0,
      ))
  );
}

/** The zone quiet hours are read in for a contact: its own (a valid IANA name in the field) or the org's. */
export function quietZone(
  policy: MessagingPolicy,
  customFields: Record<string, unknown> | undefined,
  isZone: (zone: string) => boolean,
): string {
  const q = policy.quietHours;
  if (!q || q.zone !== 'contact') return q?.zone ?? policy.timezone;
  const own = policy.contactTimezoneField ? customFields?.[policy.contactTimezoneField] : undefined;
  return typeof own === 'string' && isZone(own) ? own : policy.timezone;
}

export function decidePolicy(policy: MessagingPolicy, input: PolicyInput): PolicyDecision {
  const { now } = input;
  const grace = policy.exemptRepliesWithinMs;
  if (grace !== undefined && input.inboundAt) {
    const age = now.getTime() - input.inboundAt.getTime();
    if (age >= 0 && age <= grace) return { kind: 'go', exempt: 'reply within the grace' };
  }
  const day = quietDay(policy, now, input.zone);
  if (day) {
    const detail = `quiet day ${day.date} (calendar ${day.calendar}) in ${input.zone}`;
    return policy.inQuietHours === 'skip'
      ? { kind: 'skip', reason: 'quiet_hours', detail }
      : { kind: 'defer', reason: 'quiet_hours', until: day.until, detail };
  }
  const q = policy.quietHours;
  if (q && inQuietHours(q, now, input.zone)) {
    const until = quietHoursEnd(q, now, input.zone);
    const detail = `quiet hours ${describeQuietHours(q)} in ${input.zone}`;
    return policy.inQuietHours === 'skip'
      ? { kind: 'skip', reason: 'quiet_hours', detail }
      : { kind: 'defer', reason: 'quiet_hours', until, detail };
  }
  const over = capsReached(policy.caps, input.sentAt, now);
  if (over.length === 0) return { kind: 'go' };
  const detail = over.map((o) => `${o.cap.max} message(s) per ${o.cap.per}`).join(' and ') + ' reached';
  if (policy.overCap === 'skip') return { kind: 'skip', reason: 'policy_cap', detail };
  const until = new Date(Math.max(...over.map((o) => o.freeAt.getTime())));
  return { kind: 'defer', reason: 'policy_cap', until, detail };
}

/**
 * Caps that allow no more messages at `now`, each with when it allows the next: the moment the
 * max-th newest message leaves the rolling period.
 */
export function capsReached(
  caps: readonly PolicyCap[],
  sentAt: readonly Date[],
  now: Date,
): { cap: PolicyCap; freeAt: Date }[] {
  const newestFirst = [...sentAt].sort((a, b) => b.getTime() - a.getTime());
  const out: { cap: PolicyCap; freeAt: Date }[] = [];
  for (const cap of caps) {
    const inPeriod = newestFirst.filter((t) => t.getTime() > now.getTime() - cap.perMs);
    if (inPeriod.length >= cap.max)
      out.push({ cap, freeAt: new Date(inPeriod[cap.max - 1].getTime() + cap.perMs) });
  }
  return out;
}

const minuteOfDay = (t: DateTime) => t.hour * 60 + t.minute;

export function inQuietHours(q: QuietHours, at: Date, zone: string): boolean {
  const m = minuteOfDay(DateTime.fromJSDate(at, { zone }));
  return q.from < q.to ? m >= q.from && m < q.to : m >= q.from || m < q.to;
}

/** The first allowed minute after `at` (which is in quiet hours): `to` on the right day, in `zone`. */
export function quietHoursEnd(q: QuietHours, at: Date, zone: string): Date {
  const t = DateTime.fromJSDate(at, { zone });
  const endsTomorrow = q.from >= q.to && minuteOfDay(t) >= q.from;
  const day = endsTomorrow ? t.startOf('day').plus({ days: 1 }) : t.startOf('day');
  // Through luxon: an end inside a daylight-saving gap moves forward by the gap (02:30 -> 03:30).
  return day.set({ hour: Math.floor(q.to / 60), minute: q.to % 60 }).toJSDate();
}

const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

export function describeQuietHours(q: QuietHours): string {
  return `${hhmm(q.from)}-${hhmm(q.to)}`;
}

/** When the inbound message a message.* run answers was created (the customer's message), else undefined. */
export function inboundAt(message: Record<string, unknown> | undefined): Date | undefined {
  if (!message || message.isOutgoing !== false || typeof message.createdAt !== 'string') return undefined;
  const at = new Date(message.createdAt);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** Whether `at` falls on one of the calendar's dates, read in `zone`. */
export function isCalendarDay(dates: readonly string[], at: Date, zone: string): boolean {
  return dates.includes(DateTime.fromJSDate(at, { zone }).toISODate()!);
}

/**
 * The quiet day `at` falls on (a date of one of the policy's `quietDays` calendars, read in `zone`),
 * with the first minute after the run of quiet days it starts: the release of a deferred message.
 */
export function quietDay(
  policy: Pick<MessagingPolicy, 'quietDays' | 'calendars'>,
  at: Date,
  zone: string,
): { date: string; calendar: string; until: Date } | undefined {
  const names = policy.quietDays ?? [];
  const calendarOf = (date: string) => names.find((n) => policy.calendars[n]?.includes(date));
  let day = DateTime.fromJSDate(at, { zone }).startOf('day');
  const date = day.toISODate()!;
  const calendar = calendarOf(date);
  if (!calendar) return undefined;
  // Consecutive quiet days (Christmas Eve to Boxing Day) release at the end of the last; bounded.
  for (let i = 0; i < 366 && calendarOf(day.toISODate()!); i++) day = day.plus({ days: 1 });
  return { date, calendar, until: day.toJSDate() };
}
