import { clockParts, unitsSince } from './clock';

describe('clockParts', () => {
  it.each([
    ['2024-05-06T07:30:00Z', 'UTC', { hour: 7, minute: 30, weekday: 'mon', date: '2024-05-06' }],
    ['2024-05-06T07:30:00Z', 'Europe/Berlin', { hour: 9, minute: 30, weekday: 'mon', date: '2024-05-06' }],
    ['2024-05-05T22:30:00Z', 'Europe/Berlin', { hour: 0, minute: 30, weekday: 'mon', date: '2024-05-06' }],
    [
      '2024-05-06T02:00:00Z',
      'America/Sao_Paulo',
      { hour: 23, minute: 0, weekday: 'sun', date: '2024-05-05' },
    ],
    // winter time in Berlin is UTC+1, summer time UTC+2
    ['2024-01-15T08:00:00Z', 'Europe/Berlin', { hour: 9, minute: 0, weekday: 'mon', date: '2024-01-15' }],
    ['2024-03-31T01:30:00Z', 'Europe/Berlin', { hour: 3, minute: 30, weekday: 'sun', date: '2024-03-31' }],
  ])('%s in %s', (iso, zone, expected) => {
    expect(clockParts(new Date(iso), zone)).toMatchObject(expected);
  });
});

describe('unitsSince', () => {
  const now = new Date('2024-05-06T00:01:00Z');
  it.each([
    ['2024-05-05T23:59:00Z', 'days', 'UTC', 1],
    ['2024-05-05T23:59:00Z', 'hours', 'UTC', 0],
    ['2024-05-05T23:59:00Z', 'minutes', 'UTC', 2],
    ['2024-05-05T23:59:00Z', 'days', 'Europe/Berlin', 0], // both are 6 May in Berlin
    ['2024-04-06T12:00:00Z', 'days', 'UTC', 30],
    ['2024-03-01T12:00:00Z', 'days', 'Europe/Berlin', 66], // across the switch to summer time
    ['2024-05-07T00:00:00Z', 'days', 'UTC', -1],
    ['2024-05-06T02:00:00Z', 'hours', 'UTC', -1],
    ['not a date', 'days', 'UTC', undefined],
    [null, 'days', 'UTC', undefined],
  ] as const)('from %s in %s (%s) is %s', (from, unit, zone, expected) => {
    expect(unitsSince(from, now, unit, zone)).toBe(expected);
  });
});
