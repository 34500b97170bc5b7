// `now.isHoliday` (any calendar of policy.yaml) and `now.isHoliday.<calendar>` in conditions,
// turned at load time into what a rule could always say by hand: `now.date in [dates]` (or
// notIn), read in the rule's time zone. So the matcher, the explain trace and the reference
// engine need nothing new, and the dates are part of the rule's version: editing a calendar
// changes the versions of the rules that read it.
import { toFactPath } from '../../matching/fact-path';
import type { ProblemCollector } from './problem-collector';
import { hint } from './suggest';
import type { YamlPath } from './yaml-source';

const HOLIDAY_FACT = /^now\.isHoliday(?:\.(.+))?$/;

export function isCalendarFact(fact: unknown): fact is string {
  return typeof fact === 'string' && HOLIDAY_FACT.test(fact);
}

/** The leaf as `now.date in / notIn [dates]`, or undefined with the problem reported. */
export function calendarLeaf(
  raw: Record<string, unknown>,
  path: YamlPath,
  ctx: ProblemCollector,
): Record<string, unknown> | undefined {
  const fact = raw.fact as string;
  const name = HOLIDAY_FACT.exec(fact)![1];
  const known = Object.keys(ctx.calendars);
  if (known.length === 0) {
    ctx.error(
      [...path, 'fact'],
      'unknown-calendar',
      `${fact} needs calendars in policy.yaml (calendars: { holidays: { dates: [...] } })`,
    );
    return undefined;
  }
  if (name !== undefined && !ctx.calendars[name]) {
    ctx.error(
      [...path, 'fact'],
      'unknown-calendar',
      `unknown calendar "${name}"${hint(name, known, 0)}; policy.yaml defines ${known.join(', ')}`,
    );
    return undefined;
  }
  const equal = raw.operator === 'equal' || raw.operator === 'notEqual';
  if (!equal || typeof raw.value !== 'boolean') {
    ctx.error(
      path,
      'invalid-value',
      `${fact} is true or false: write { fact: ${fact}, operator: equal, value: true } (or false)`,
    );
    return undefined;
  }
  const dates =
    name !== undefined
      ? [...ctx.calendars[name]]
      : [...new Set(known.flatMap((k) => ctx.calendars[k]))].sort();
  const onHoliday = (raw.operator === 'equal') === raw.value;
  return { fact: 'now', path: toFactPath(['date']), operator: onHoliday ? 'in' : 'notIn', value: dates };
}
