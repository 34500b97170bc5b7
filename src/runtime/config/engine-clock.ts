// The time the engine decides rules by ("now" for windows, quiet hours, calendars, caps and limit
// periods, waits and their wake-up jobs): one injected object instead of `new Date()`, provided
// for the whole process by ConfigModule from ENGINE_CLOCK_OFFSET_MS. The offset moves the calendar
// of every process that shares it (two workers, a worker restarted) while time still passes at
// the real rate, so a test can start at 06:59:40 in an organization's zone and see the first
// allowed minute a few real seconds later. BullMQ delays are differences of two engine instants,
// so they stay real durations. Leases, the CRM budget, retention, sessions and cron ticks keep
// the process clock (docs/RELIABILITY.md, "The engine clock").
export const ENGINE_CLOCK = Symbol('ENGINE_CLOCK');

export interface EngineClock {
  /** The engine's present: the process clock plus the offset. */
  now(): Date;
  /** The engine time of an instant stamped by a real clock (Postgres `now()`, the CRM, `Date.now()`). */
  fromWallClock(at: Date): Date;
  /** The real instant of an engine time, to compare with such a stamp. */
  toWallClock(at: Date): Date;
}

/** The engine clock `offsetMs` ahead of the process clock (behind when negative). */
export function offsetClock(offsetMs: number): EngineClock {
  return {
    now: () => new Date(Date.now() + offsetMs),
    fromWallClock: (at) => new Date(at.getTime() + offsetMs),
    toWallClock: (at) => new Date(at.getTime() - offsetMs),
  };
}

/** The process clock itself: production's engine clock. */
export function systemClock(): EngineClock {
  return offsetClock(0);
}
