// IANA time zones as rules name them (schedules, `timezone:`, windows): a typo gets a
// "did you mean", since a wrong zone would silently shift every hour the rule reads.
import type { ProblemCollector } from '../format/problem-collector';
import { hint } from '../format/suggest';
import type { YamlPath } from '../format/yaml-source';

let zones: string[] | undefined;

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Reports an unknown zone at `path`; true when the zone is usable. */
export function checkTimeZone(zone: string, path: YamlPath, ctx: ProblemCollector): boolean {
  if (isTimeZone(zone)) return true;
  zones ??= Intl.supportedValuesOf('timeZone');
  ctx.error(
    path,
    'invalid-timezone',
    `unknown time zone "${zone}"${hint(zone, zones, 0)}; use an IANA name like Europe/Lisbon`,
  );
  return false;
}
