// Tick arithmetic over cron expressions (the `cron` package, time zones included). Pure.
import { CronTime } from 'cron';

function nextFrom(cron: CronTime, tz: string | undefined, after: Date): Date {
  return cron.getNextDateFrom(after, tz).toJSDate();
}

/** The first tick strictly after `after`. */
export function nextTickAfter(expression: string, tz: string | undefined, after: Date): Date {
  return nextFrom(new CronTime(expression, tz), tz, after);
}

/**
 * The latest tick t with after < t <= now, or null. Used on start: however many ticks were
 * missed while the engine was down, the sweep runs once, for the latest of them. A growing
 * window keeps this to a few dozen steps even after a long outage of a per-second cron.
 */
export function latestTickBetween(
  expression: string,
  tz: string | undefined,
  after: Date,
  now: Date,
): Date | null {
  const cron = new CronTime(expression, tz);
  if (nextFrom(cron, tz, after).getTime() > now.getTime()) return null;
  for (let window = 1000; ; window *= 2) {
    const from = new Date(Math.max(now.getTime() - window, after.getTime()));
    let latest = nextFrom(cron, tz, from);
    if (latest.getTime() > now.getTime()) continue;
    for (
      let next = nextFrom(cron, tz, latest);
      next.getTime() <= now.getTime();
      next = nextFrom(cron, tz, latest)
    )
      latest = next;
    return latest;
  }
}
