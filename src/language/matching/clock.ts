// Calendar facts of an instant in a rule's time zone (`now.hour`, `now.weekday`, ...) and
// whole units elapsed since a date (`daysSince: contact.createdAt`). Pure; luxon does the
// time-zone arithmetic so daylight-saving changes are handled by the IANA database.
import { DateTime } from 'luxon';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface ClockParts {
  hour: number; // 0-23
  minute: number; // 0-59
  weekday: Weekday;
  date: string; // YYYY-MM-DD
  day: number; // 1-31
  month: number; // 1-12
  year: number;
}

export const DEFAULT_TIMEZONE = 'UTC';

export function clockParts(now: Date, timezone: string): ClockParts {
  const t = DateTime.fromJSDate(now, { zone: timezone });
  return {
    hour: t.hour,
    minute: t.minute,
    weekday: WEEKDAYS[t.weekday - 1],
    date: t.toISODate()!,
    day: t.day,
    month: t.month,
    year: t.year,
  };
}

export const SINCE_UNITS = { daysSince: 'days', hoursSince: 'hours', minutesSince: 'minutes' } as const;
export type SinceKey = keyof typeof SINCE_UNITS;
export type SinceUnit = (typeof SINCE_UNITS)[SinceKey];

/**
 * Whole units from `from` to `now`, or undefined when `from` is not a date. Days are calendar
 * days in the time zone (created yesterday at 23:59 is 1 day ago today at 00:01), hours and
 * minutes are elapsed time rounded down. A date in the future gives a negative number.
 */
export function unitsSince(from: unknown, now: Date, unit: SinceUnit, timezone: string): number | undefined {
  const start = toDateTime(from, timezone);
  if (!start) return undefined;
  const end = DateTime.fromJSDate(now, { zone: timezone });
  if (unit === 'days') return Math.round(end.startOf('day').diff(start.startOf('day'), 'days').days);
  const elapsed = end.diff(start, unit).as(unit);
  return elapsed < 0 ? Math.ceil(elapsed) : Math.floor(elapsed);
}

function toDateTime(value: unknown, timezone: string): DateTime | undefined {
  let t: DateTime;
  if (value instanceof Date) t = DateTime.fromJSDate(value, { zone: timezone });
  else if (typeof value === 'string') t = DateTime.fromISO(value, { zone: timezone });
  else if (typeof value === 'number') t = DateTime.fromMillis(value, { zone: timezone });
  else return undefined;
  return t.isValid ? t : undefined;
}
