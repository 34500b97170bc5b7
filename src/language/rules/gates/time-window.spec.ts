import { isOpen, nextOpening, parseDays, parseHours, type TimeWindow } from './time-window';

describe('parseDays', () => {
  it.each([
    ['mon-fri', ['mon', 'tue', 'wed', 'thu', 'fri']],
    ['sat-sun', ['sat', 'sun']],
    ['fri-mon', ['mon', 'fri', 'sat', 'sun']],
    ['mon, wed,fri', ['mon', 'wed', 'fri']],
    [
      ['tue', 'Sat'],
      ['tue', 'sat'],
    ],
    ['sun', ['sun']],
    ['mon-sun', ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']],
  ])('%j is %j', (spec, days) => {
    expect(parseDays(spec)).toEqual(days);
  });

  it.each([['monday-friday'], ['mon-'], [''], [[]], [3], [['mon', 2]]])('refuses %j', (spec) => {
    expect(parseDays(spec)).toHaveProperty('error');
  });
});

describe('parseHours', () => {
  it.each([
    ['09:00-18:00', { from: 540, to: 1080 }],
    ['9:30 - 17:45', { from: 570, to: 1065 }],
    ['22:00-06:00', { from: 1320, to: 360 }],
    ['00:00-24:00', { from: 0, to: 1440 }],
  ])('%s', (spec, expected) => {
    expect(parseHours(spec)).toEqual(expected);
  });

  it.each([['9-18'], ['09:00'], ['25:00-26:00'], ['09:60-10:00'], ['10:00-10:00'], ['24:30-01:00'], [900]])(
    'refuses %j',
    (spec) => {
      expect(parseHours(spec)).toHaveProperty('error');
    },
  );
});

const office: TimeWindow = {
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  from: 540,
  to: 1080,
  timezone: 'Europe/Berlin',
  outside: 'wait',
};
const night: TimeWindow = { ...office, days: ['fri'], from: 1320, to: 360 };

describe('isOpen and nextOpening', () => {
  it.each([
    // 2024-05-06 is a Monday; Berlin is UTC+2 in May
    [office, '2024-05-06T07:00:00Z', true, '2024-05-06T07:00:00Z'],
    [office, '2024-05-06T06:59:00Z', false, '2024-05-06T07:00:00Z'],
    [office, '2024-05-06T16:00:00Z', false, '2024-05-07T07:00:00Z'],
    [office, '2024-05-10T16:30:00Z', false, '2024-05-13T07:00:00Z'], // Friday evening -> Monday
    [office, '2024-05-11T10:00:00Z', false, '2024-05-13T07:00:00Z'], // Saturday
    [office, '2024-01-08T08:30:00Z', true, '2024-01-08T08:30:00Z'], // winter: UTC+1
    [office, '2024-01-08T07:30:00Z', false, '2024-01-08T08:00:00Z'],
    [night, '2024-05-10T20:30:00Z', true, '2024-05-10T20:30:00Z'], // Fri 22:30
    [night, '2024-05-11T03:00:00Z', true, '2024-05-11T03:00:00Z'], // Sat 05:00, still Friday's night
    [night, '2024-05-11T04:00:00Z', false, '2024-05-17T20:00:00Z'], // Sat 06:00 -> next Friday 22:00
    [night, '2024-05-10T03:00:00Z', false, '2024-05-10T20:00:00Z'], // Fri 05:00 is Thursday's night: closed
  ])('%#: at %s open=%s, next opening %s', (w, at, open, next) => {
    expect(isOpen(w, new Date(at))).toBe(open);
    expect(nextOpening(w, new Date(at)).toISOString()).toBe(new Date(next).toISOString());
  });

  it('opens at the first real minute when the opening time falls in a daylight-saving gap', () => {
    const w: TimeWindow = { ...office, days: ['sun'], from: 150, to: 240 }; // 02:30-04:00
    // 2024-03-31 02:00 Berlin does not exist (clocks jump to 03:00)
    const next = nextOpening(w, new Date('2024-03-30T12:00:00Z'));
    expect(next.toISOString()).toBe('2024-03-31T01:30:00.000Z');
    expect(isOpen(w, next)).toBe(true);
  });
});
