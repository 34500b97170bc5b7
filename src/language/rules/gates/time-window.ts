// Time windows (`window: { days: mon-fri, hours: "09:00-18:00", timezone: Europe/Berlin }`):
// parsing the written form, and the two questions the engine asks: is it open at T, and when
// does it open next. Pure; luxon does the zone arithmetic (daylight saving included).
import { DateTime } from 'luxon';
import { WEEKDAYS, type Weekday } from '../../matching/clock';

export interface TimeWindow {
  /** Days on which the window opens (an overnight window belongs to the day it opens). */
  days: Weekday[];
  /** Minutes after midnight; `to` <= `from` means the window runs past midnight. */
  from: number;
  to: number;
  timezone: string;
  /** Outside the window: wait for it to open (a delayed job), or skip with a recorded reason. */
  outside: 'wait' | 'skip';
  /** `calendar:` of policy.yaml: the window does not open on these dates (YYYY-MM-DD, in `timezone`). */
  calendar?: string;
  closedOn?: string[];
}

export const DAYS_HINT = 'days like mon-fri, "mon, wed, fri", sat-sun or [mon, tue]';
export const HOURS_HINT = 'hours like "09:00-18:00" (24-hour clock; "22:00-06:00" runs overnight)';

const DAY_RANGE_RE = /^([a-z]{3})(?:\s*-\s*([a-z]{3}))?$/;

/** Weekdays in week order, or why the text is not a day list. */
export function parseDays(spec: unknown): Weekday[] | { error: string } {
  const parts = Array.isArray(spec) ? spec : typeof spec === 'string' ? spec.split(',') : undefined;
  if (!parts || parts.length === 0) return { error: `expected ${DAYS_HINT}` };
  const days = new Set<Weekday>();
  for (const part of parts) {
    const m = typeof part === 'string' ? DAY_RANGE_RE.exec(part.trim().toLowerCase()) : null;
    const [a, b] = m ? [dayIndex(m[1]), m[2] === undefined ? dayIndex(m[1]) : dayIndex(m[2])] : [-1, -1];
    if (a < 0 || b < 0)
      return { error: `${JSON.stringify(part)} is not a day or day range: expected ${DAYS_HINT}` };
    // A range may wrap over the week end: fri-mon is fri, sat, sun, mon.
    for (let i = a; ; i = (i + 1) % 7) {
      days.add(WEEKDAYS[i]);
      if (i === b) break;
    }
  }
  return WEEKDAYS.filter((d) => days.has(d));
}

const dayIndex = (d: string) => (WEEKDAYS as readonly string[]).indexOf(d);

const HOURS_RE = /^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$/;

export function parseHours(spec: unknown): { from: number; to: number } | { error: string } {
  const m = typeof spec === 'string' ? HOURS_RE.exec(spec.trim()) : null;
  if (!m) return { error: `${JSON.stringify(spec)} is not a time range: expected ${HOURS_HINT}` };
  const [fh, fm, th, tm] = m.slice(1).map(Number);
  if (fh > 23 || fm > 59 || th > 24 || tm > 59 || (th === 24 && tm > 0))
    return {
      error: `${JSON.stringify(spec)} has a time that does not exist: hours 00-23 (24:00 as an end), minutes 00-59`,
    };
  const from = fh * 60 + fm;
  const to = th * 60 + tm;
  if (from === to)
    return { error: `${JSON.stringify(spec)} is empty: the window opens and closes at the same time` };
  return { from, to: to === 24 * 60 ? 24 * 60 : to };
}

const minuteOfDay = (t: DateTime) => t.hour * 60 + t.minute;

function opensOn(w: TimeWindow, t: DateTime): boolean {
  return w.days.includes(WEEKDAYS[t.weekday - 1]) && !w.closedOn?.includes(t.toISODate()!);
}

export function isOpen(w: TimeWindow, at: Date): boolean {
  const t = DateTime.fromJSDate(at, { zone: w.timezone });
  const m = minuteOfDay(t);
  if (w.from < w.to) return opensOn(w, t) && m >= w.from && m < w.to;
  // Overnight: open from `from` on an opening day until `to` on the next day.
  return (opensOn(w, t) && m >= w.from) || (opensOn(w, t.minus({ days: 1 })) && m < w.to);
}

/**
 * `at` when the window is open, else the next time it opens: within a week, plus a day for each
 * calendar date that closes it (every window opens weekly).
 */
export function nextOpening(w: TimeWindow, at: Date): Date {
  if (isOpen(w, at)) return at;
  const start = DateTime.fromJSDate(at, { zone: w.timezone }).startOf('day');
  for (let d = 0; d <= 7 + (w.closedOn?.length ?? 0); d++) {
    const day = start.plus({ days: d });
    if (!opensOn(w, day)) continue;
    // Through luxon, so a start inside a daylight-saving gap moves to the first real minute.
    const open = day.set({ hour: Math.floor(w.from / 60), minute: w.from % 60 });
    if (open.toMillis() > at.getTime()) return open.toJSDate();
  }
  throw new Error('a window with at least one day opens within a week of its closed dates');
}

/** How the window reads in explain output and skip reasons. */
export function describeWindow(w: TimeWindow): string {
  const hhmm = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  const except = w.calendar ? ` except ${w.calendar}` : '';
  return `${w.days.join(',')} ${hhmm(w.from)}-${hhmm(w.to)} ${w.timezone}${except}`;
}
