// Pure. How long a client waits after wrong credentials at any door (credential-throttle.service.ts).
// A few typos cost nothing; after them the wait doubles from 250 ms up to a minute, so guessing
// the token from one address runs at one try a minute. Parallel attempts cannot slip through while
// the first ones are being checked: no more are checked at once than could all be wrong without a
// wait (checksInFlight); the others wait their turn, and once failures bring a wait they are refused.

export interface ThrottlePolicy {
  /** Failures in a row that add no wait. */
  freeFailures: number;
  firstDelayMs: number;
  maxDelayMs: number;
  /** Every this many failures in a row from one address, an alert goes out. */
  alertEvery: number;
  /** A quiet address is forgotten this long after its wait ends. */
  forgetAfterMs: number;
  /** How long an attempt waits for its turn behind the client's checks in flight before a 429. */
  queueMs: number;
  /** A check in flight this long is taken as lost (its process died mid-check) and frees its place. */
  lostCheckMs: number;
}

export const LOGIN_THROTTLE: ThrottlePolicy = {
  freeFailures: 3,
  firstDelayMs: 250,
  maxDelayMs: 60_000,
  alertEvery: 10,
  forgetAfterMs: 15 * 60_000,
  queueMs: 2_000,
  lostCheckMs: 10_000,
};

/** The wait before the next attempt after `failures` failures in a row. */
export function loginDelayMs(failures: number, policy: ThrottlePolicy = LOGIN_THROTTLE): number {
  if (failures <= policy.freeFailures) return 0;
  const doublings = failures - policy.freeFailures - 1;
  return Math.min(policy.firstDelayMs * 2 ** Math.min(doublings, 30), policy.maxDelayMs);
}

/**
 * The waits after 1, 2, … failures until the cap, the cap last: what the Redis script indexes
 * (its last entry stands for every count beyond the list).
 */
export function delaySchedule(policy: ThrottlePolicy = LOGIN_THROTTLE): number[] {
  const schedule: number[] = [];
  for (let failures = 1; ; failures++) {
    const delay = loginDelayMs(failures, policy);
    schedule.push(delay);
    if (delay >= policy.maxDelayMs) return schedule;
  }
}

export function isAlertBurst(failures: number, policy: ThrottlePolicy = LOGIN_THROTTLE): boolean {
  return failures > 0 && failures % policy.alertEvery === 0;
}

/**
 * How many of a client's credentials may be checked at once with `failures` on record: as many as
 * could all turn out wrong without earning a wait (so N parallel guesses cost what N in a row do),
 * and always one. A client's correct credentials sent at once are all checked, some after a turn.
 */
export function checksInFlight(failures: number, policy: ThrottlePolicy = LOGIN_THROTTLE): number {
  return Math.max(1, policy.freeFailures - failures + 1);
}

/**
 * The checks allowed in flight with 0, 1, … failures on record, down to the one always allowed:
 * what the Redis script indexes (its last entry stands for every count beyond the list).
 */
export function inFlightSchedule(policy: ThrottlePolicy = LOGIN_THROTTLE): number[] {
  return Array.from({ length: policy.freeFailures + 2 }, (_, failures) => checksInFlight(failures, policy));
}
