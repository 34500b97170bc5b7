import { describeLimit, rateLimitMessage, retryAfterSeconds, SlidingWindowLog } from './sliding-window-log';

describe('SlidingWindowLog', () => {
  it('admits up to the limit inside one window, then says when the oldest entry leaves', () => {
    const log = new SlidingWindowLog(3, 1000);
    expect(log.tryAcquire('k', 0)).toEqual({ admitted: true });
    expect(log.tryAcquire('k', 100)).toEqual({ admitted: true });
    expect(log.tryAcquire('k', 200)).toEqual({ admitted: true });
    expect(log.tryAcquire('k', 300)).toEqual({ admitted: false, retryAfterMs: 700 });
  });

  it('frees a slot exactly when an entry is windowMs old', () => {
    const log = new SlidingWindowLog(1, 1000);
    log.tryAcquire('k', 0);
    expect(log.tryAcquire('k', 999).admitted).toBe(false);
    expect(log.tryAcquire('k', 1000).admitted).toBe(true);
  });

  it('never lets any window hold more than the limit (no fixed-window burst at a boundary)', () => {
    const log = new SlidingWindowLog(10, 1000);
    const admitted: number[] = [];
    for (let t = 0; t < 5000; t += 7) if (log.tryAcquire('k', t).admitted) admitted.push(t);
    for (const start of admitted)
      expect(admitted.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(10);
    expect(admitted.length).toBeGreaterThanOrEqual(45);
  });

  it('does not log refused requests', () => {
    const log = new SlidingWindowLog(1, 1000);
    log.tryAcquire('k', 0);
    for (let t = 1; t < 1000; t += 10) log.tryAcquire('k', t);
    expect(log.tryAcquire('k', 1000).admitted).toBe(true);
  });

  it('keeps keys apart and forgets everything on reset', () => {
    const log = new SlidingWindowLog(1, 1000);
    log.tryAcquire('a', 0);
    expect(log.tryAcquire('b', 0).admitted).toBe(true);
    log.reset();
    expect(log.tryAcquire('a', 1).admitted).toBe(true);
    expect(log.usedInWindow('a', 1)).toBe(1);
  });

  it.each([0, 1.5, -1])('refuses a limit of %p', (limit) => {
    expect(() => new SlidingWindowLog(limit, 1000)).toThrow();
  });
});

describe('rate limit wording', () => {
  it.each([
    [1, 1],
    [999, 1],
    [1000, 1],
    [1001, 2],
    [11_200, 12],
  ])('Retry-After for %i ms is %i s', (ms, s) => expect(retryAfterSeconds(ms)).toBe(s));

  it('says per minute for a 60 s window and per N seconds otherwise', () => {
    expect(rateLimitMessage(300, 60_000, 12)).toBe(
      'Rate limit of 300 requests per minute exceeded; retry in 12 seconds',
    );
    expect(rateLimitMessage(300, 6000, 1)).toBe(
      'Rate limit of 300 requests per 6 seconds exceeded; retry in 1 second',
    );
    expect(describeLimit(5, 1500)).toBe('5 requests per 1.5 seconds');
    expect(describeLimit(5, 1000)).toBe('5 requests per 1 second');
  });
});
