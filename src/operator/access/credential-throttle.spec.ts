import {
  checksInFlight,
  delaySchedule,
  inFlightSchedule,
  isAlertBurst,
  LOGIN_THROTTLE,
  loginDelayMs,
} from './credential-throttle';

describe('console login throttle', () => {
  it.each([
    [0, 0],
    [1, 0],
    [3, 0],
    [4, 250],
    [5, 500],
    [6, 1_000],
    [10, 16_000],
    [12, 60_000],
    [13, 60_000],
    [1_000, 60_000],
  ])('after %i failure(s) in a row the next attempt waits %i ms', (failures, delay) => {
    expect(loginDelayMs(failures)).toBe(delay);
  });

  it('lists every wait up to the cap, the cap last', () => {
    expect(delaySchedule()).toEqual([0, 0, 0, 250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000]);
  });

  it('grows with every failure past the free ones and never shrinks', () => {
    const schedule = delaySchedule();
    for (let i = LOGIN_THROTTLE.freeFailures + 1; i < schedule.length; i++)
      expect(schedule[i]).toBeGreaterThan(schedule[i - 1]);
  });

  it.each([
    [0, false],
    [9, false],
    [10, true],
    [11, false],
    [20, true],
  ])('alerts at %i failures in a row: %s', (failures, alert) => {
    expect(isAlertBurst(failures)).toBe(alert);
  });

  it.each([
    [0, 4],
    [1, 3],
    [2, 2],
    [3, 1],
    [4, 1],
    [50, 1],
  ])('with %i failure(s) on record checks at most %i credential(s) at once', (failures, inFlight) => {
    expect(checksInFlight(failures)).toBe(inFlight);
  });

  it('never checks at once more than could all be wrong without a wait', () => {
    for (let failures = 0; failures < 20; failures++) {
      const all = failures + checksInFlight(failures);
      // The last of them waits behind the others' failures: at most the free ones, or one at a time.
      expect(all <= LOGIN_THROTTLE.freeFailures + 1 || checksInFlight(failures) === 1).toBe(true);
    }
  });

  it('lists the checks allowed in flight down to the one always allowed, that one last', () => {
    expect(inFlightSchedule()).toEqual([4, 3, 2, 1, 1]);
  });
});
