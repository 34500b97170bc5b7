// Segment rules (`on: { schedule, timezone?, segment }`): a cron the scheduler accepts, a real
// IANA time zone, a segment the engine can evaluate.
import { validateCronExpression } from 'cron';
import type { ScheduleTrigger } from '../format/rule-types';
import { isPlainObject, type ProblemCollector } from '../format/problem-collector';
import { checkSegmentFilters, checkSegmentName } from '../format/segment-problems';
import { checkTimeZone } from './check-timezone';

/** The schedule part of a segment rule (when and on-leave are added by the caller), or undefined. */
export function checkSchedule(
  on: Record<string, unknown>,
  ctx: ProblemCollector,
): Omit<ScheduleTrigger, 'when' | 'onLeave'> | undefined {
  const before = ctx.errorCount();
  const cron = on.schedule;
  if (typeof cron === 'string') {
    const check = validateCronExpression(cron);
    if (!check.valid) {
      ctx.error(
        ['on', 'schedule'],
        'invalid-cron',
        `invalid cron expression "${cron}": ${check.error?.message ?? 'not a cron expression'}`,
      );
    } else if (firesEverySecond(cron)) {
      ctx.warn(
        ['on', 'schedule'],
        'frequent-schedule',
        `"${cron}" fires more than once a minute; every sweep spends CRM budget`,
      );
    }
  }
  const tz = on.timezone;
  if (typeof tz === 'string') checkTimeZone(tz, ['on', 'timezone'], ctx);
  const segment = on.segment;
  if (!isPlainObject(segment)) return undefined; // the schema reported it
  if (segment.name !== undefined) checkSegmentName(segment.name, ['on', 'segment', 'name'], ctx);
  if (segment.sync === true && segment.name === undefined) {
    ctx.error(
      ['on', 'segment', 'sync'],
      'invalid-segment',
      'sync: true creates the segment in the CRM by name: give the segment a name',
    );
  }
  if (segment.filters !== undefined) {
    checkSegmentFilters(segment.filters, ['on', 'segment', 'filters'], ctx, true);
    if (isPlainObject(segment.filters) && Object.keys(segment.filters).length === 0)
      ctx.warn(['on', 'segment', 'filters'], 'empty-segment', 'empty filters: the segment is every contact');
  }
  if (ctx.errorCount() > before || typeof cron !== 'string' || segment.filters === undefined)
    return undefined;
  return {
    kind: 'schedule',
    cron,
    ...(typeof tz === 'string' ? { timezone: tz } : {}),
    segment: {
      ...(typeof segment.name === 'string' ? { name: segment.name } : {}),
      filters: segment.filters as ScheduleTrigger['segment']['filters'],
      ...(typeof segment.sync === 'boolean' ? { sync: segment.sync } : {}),
    },
  };
}

/** Six fields whose seconds field is not a single number: fires several times a minute. */
function firesEverySecond(cron: string): boolean {
  const fields = cron.trim().split(/\s+/);
  return fields.length === 6 && !/^\d+$/.test(fields[0]);
}
