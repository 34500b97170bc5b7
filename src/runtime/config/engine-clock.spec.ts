import { offsetClock, systemClock } from './engine-clock';

// The offset moves the calendar, never the rate: what a test sets is where time starts.
describe('offsetClock', () => {
  const HOUR = 3_600_000;

  afterEach(() => jest.useRealTimers());

  it.each([
    ['ahead an hour', HOUR, '2030-01-15T08:00:00.000Z'],
    ['behind a day', -24 * HOUR, '2030-01-14T07:00:00.000Z'],
    ['the process clock', 0, '2030-01-15T07:00:00.000Z'],
  ])('%s: now is the process clock plus the offset, and moves with it', (_case, offset, expected) => {
    jest.useFakeTimers({ now: new Date('2030-01-15T07:00:00.000Z') });
    const clock = offsetClock(offset);
    expect(clock.now().toISOString()).toBe(expected);
    jest.advanceTimersByTime(20_000);
    expect(clock.now().getTime() - new Date(expected).getTime()).toBe(20_000);
  });

  it.each([
    ['ahead an hour', HOUR, '2030-01-15T07:00:00.000Z', '2030-01-15T06:00:00.000Z'],
    ['behind an hour', -HOUR, '2030-01-15T07:00:00.000Z', '2030-01-15T08:00:00.000Z'],
  ])('%s: an engine time and its wall-clock instant map both ways', (_case, offset, engine, wall) => {
    const clock = offsetClock(offset);
    expect(clock.toWallClock(new Date(engine)).toISOString()).toBe(wall);
    expect(clock.fromWallClock(new Date(wall)).toISOString()).toBe(engine);
  });

  it('systemClock maps every instant to itself', () => {
    const at = new Date('2030-01-15T07:00:00.000Z');
    expect(systemClock().toWallClock(at)).toEqual(at);
    expect(systemClock().fromWallClock(at)).toEqual(at);
  });
});
