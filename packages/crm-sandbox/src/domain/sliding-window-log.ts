// docs/CRM-API.md §8: 300 requests per minute per key. The strictest reading is a
// sliding window log: no interval of windowMs ever holds more than `limit` admitted
// requests, whatever its start. Refused requests are not logged (a 429 costs nothing).

export type Admission = { admitted: true } | { admitted: false; retryAfterMs: number };

export class SlidingWindowLog {
  private readonly logs = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error('rate limit must be a positive integer');
    if (!(windowMs > 0)) throw new Error('rate window must be positive');
  }

  /** Admits and records a request at `nowMs`, or says how long until the oldest entry leaves. */
  tryAcquire(key: string, nowMs: number): Admission {
    const log = this.prune(key, nowMs);
    if (log.length < this.limit) {
      log.push(nowMs);
      return { admitted: true };
    }
    return { admitted: false, retryAfterMs: Math.max(0, log[0] + this.windowMs - nowMs) };
  }

  usedInWindow(key: string, nowMs: number): number {
    return this.prune(key, nowMs).length;
  }

  reset(): void {
    this.logs.clear();
  }

  private prune(key: string, nowMs: number): number[] {
    let log = this.logs.get(key);
    if (!log) {
      log = [];
      this.logs.set(key, log);
    }
    // An entry at t covers [t, t + windowMs); it leaves the window exactly at t + windowMs.
    let drop = 0;
    while (drop < log.length && log[drop] + this.windowMs <= nowMs) drop++;
    if (drop > 0) log.splice(0, drop);
    return log;
  }
}

/** Retry-After in whole seconds: rounded up, never below 1. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/** "300 requests per minute" when the window is 60 s, "300 requests per 6 seconds" otherwise. */
export function describeLimit(limit: number, windowMs: number): string {
  if (windowMs === 60_000) return `${limit} requests per minute`;
  const seconds = windowMs / 1000;
  return `${limit} requests per ${seconds} second${seconds === 1 ? '' : 's'}`;
}

export function rateLimitMessage(limit: number, windowMs: number, retryAfterSec: number): string {
  const unit = retryAfterSec === 1 ? 'second' : 'seconds';
  return `Rate limit of ${describeLimit(limit, windowMs)} exceeded; retry in ${retryAfterSec} ${unit}`;
}
