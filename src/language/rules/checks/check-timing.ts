// `window:` (on a rule or an action) and `limit:` as written -> TimeWindow / RuleLimit, every
// problem reported at its position. A window or limit that silently did nothing would let a
// message out at 3 a.m. or past a budget, so each part is checked.
import { DEFAULT_TIMEZONE } from '../../matching/clock';
import { checkTimeZone } from './check-timezone';
import { DURATION_HINT, parseDuration } from '../format/durations';
import { isPlainObject, type ProblemCollector } from '../format/problem-collector';
import type { RuleLimit } from '../format/rule-types';
import { DAYS_HINT, HOURS_HINT, parseDays, parseHours, type TimeWindow } from '../gates/time-window';
import { hint } from '../format/suggest';
import type { YamlPath } from '../format/yaml-source';

const ALL_DAY = { from: 0, to: 24 * 60 };

/** `timezone` is the rule's, used when the window names none. */
export function checkWindow(
  raw: unknown,
  path: YamlPath,
  timezone: string | undefined,
  ctx: ProblemCollector,
): TimeWindow | undefined {
  if (!isPlainObject(raw)) {
    ctx.error(path, 'invalid-window', `a window is a mapping like { days: mon-fri, hours: "09:00-18:00" }`);
    return undefined;
  }
  const before = ctx.errorCount();
  if (raw.days === undefined && raw.hours === undefined && raw.calendar === undefined) {
    // A calendar is named only where policy.yaml defines some.
    const orCalendar = Object.keys(ctx.calendars).length > 0 ? ' (or a calendar of policy.yaml)' : '';
    ctx.error(
      path,
      'invalid-window',
      `a window needs days, hours or both${orCalendar}: ${DAYS_HINT}; ${HOURS_HINT}`,
    );
  }
  const calendar = checkCalendar(raw.calendar, [...path, 'calendar'], ctx);
  const days = raw.days === undefined ? parseDays('mon-sun') : parseDays(raw.days);
  if ('error' in days) ctx.error([...path, 'days'], 'invalid-window', `window days: ${days.error}`);
  const hours = raw.hours === undefined ? ALL_DAY : parseHours(raw.hours);
  if ('error' in hours) ctx.error([...path, 'hours'], 'invalid-window', `window hours: ${hours.error}`);
  const zone = raw.timezone;
  if (zone !== undefined && (typeof zone !== 'string' || !checkTimeZone(zone, [...path, 'timezone'], ctx)))
    return undefined;
  if (ctx.errorCount() > before || 'error' in days || 'error' in hours) return undefined;
  return {
    days,
    ...hours,
    timezone: typeof zone === 'string' ? zone : (timezone ?? DEFAULT_TIMEZONE),
    outside: raw.outside === 'skip' ? 'skip' : 'wait',
    ...(calendar ? { calendar: calendar.name, closedOn: calendar.dates } : {}),
  };
}

/** `calendar: holidays`: a calendar of policy.yaml, whose dates close the window. */
function checkCalendar(
  name: unknown,
  path: YamlPath,
  ctx: ProblemCollector,
): { name: string; dates: string[] } | undefined {
  if (name === undefined) return undefined;
  const known = Object.keys(ctx.calendars);
  if (typeof name === 'string' && ctx.calendars[name]) return { name, dates: [...ctx.calendars[name]] };
  ctx.error(
    path,
    'unknown-calendar',
    known.length === 0
      ? `no calendar ${JSON.stringify(name)}: calendars are defined in policy.yaml (calendars: { holidays: { dates: [...] } })`
      : `unknown calendar ${JSON.stringify(name)}${hint(String(name), known, 0)}; policy.yaml defines ${known.join(', ')}`,
  );
  return undefined;
}

export function checkLimit(raw: unknown, path: YamlPath, ctx: ProblemCollector): RuleLimit | undefined {
  if (!isPlainObject(raw)) return undefined; // the schema reported it
  const before = ctx.errorCount();
  const { max, per } = raw;
  if (max === undefined)
    ctx.error(path, 'invalid-limit', 'a limit needs max: the number of runs allowed per period');
  else if (typeof max !== 'number' || !Number.isInteger(max) || max < 1)
    ctx.error(
      [...path, 'max'],
      'invalid-limit',
      `max is a whole number of runs, at least 1, not ${JSON.stringify(max)}`,
    );
  const perMs = parseDuration(per);
  if (per === undefined)
    ctx.error(path, 'invalid-limit', `a limit needs a period: per: 1h (max runs per hour), or per: 1d, 1w`);
  else if (perMs === undefined)
    ctx.error([...path, 'per'], 'invalid-limit', `per takes ${DURATION_HINT}, not ${JSON.stringify(per)}`);
  if (ctx.errorCount() > before || perMs === undefined) return undefined;
  return { max: max as number, perMs, over: raw.over === 'skip' ? 'skip' : 'queue' };
}
