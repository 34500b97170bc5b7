import { BUSY_MAX_MS, busyBackoffMs } from './busy-backoff';

describe('busyBackoffMs', () => {
  it.each([
    // waits, random, delay
    [0, 0, 25],
    [0, 0.999999, 50],
    [1, 0, 50],
    [1, 0.5, 75],
    [3, 1 - 1e-9, 400],
    [5, 0, 800],
    [7, 0, 1_000], // 6,400 capped at 2,000, then the jitter's lower half
    [30, 1 - 1e-9, BUSY_MAX_MS],
    [-1, 0, 25], // a corrupted count never goes below the first wait
  ])('after %i wait(s) with random %p waits %i ms', (waits, random, delay) => {
    expect(busyBackoffMs(waits, random)).toBe(delay);
  });

  it('never exceeds the cap however long the contact stays busy', () => {
    for (let waits = 0; waits < 100; waits++)
      expect(busyBackoffMs(waits, 0.999)).toBeLessThanOrEqual(BUSY_MAX_MS);
  });
});
