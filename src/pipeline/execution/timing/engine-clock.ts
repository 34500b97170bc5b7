// The time the run-timing service reads (waits, windows, limits, a wait's `unless`): one injected
// object instead of `new Date()`, so a test can set the calendar (a window opening at 09:00 on a
// Monday) and move it on without waiting real minutes or depending on when it runs. Production
// uses the process clock; BullMQ delays and the ledger's waiting_until are computed from it.
export const ENGINE_CLOCK = Symbol('ENGINE_CLOCK');

export interface EngineClock {
  now(): Date;
}

export function systemClock(): EngineClock {
  return { now: () => new Date() };
}
