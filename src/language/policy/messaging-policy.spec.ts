import {
  capsReached,
  decidePolicy,
  inQuietHours,
  isCalendarDay,
  quietHoursEnd,
  quietZone,
  type MessagingPolicy,
  type PolicyCap,
  type QuietHours,
} from './messaging-policy';

const H = 3_600_000;
const D = 24 * H;
const cap = (max: number, per: string, perMs: number): PolicyCap => ({ max, per, perMs });
const CAPS = [cap(2, '1d', D), cap(5, '7d', 7 * D)];
const at = (iso: string) => new Date(iso);
const NOW = at('2026-06-10T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const overnight: QuietHours = { from: 21 * 60, to: 8 * 60, zone: 'Europe/Berlin' };

const policy = (over: Partial<MessagingPolicy> = {}): MessagingPolicy => ({
  hash: 'x',
  timezone: 'UTC',
  caps: CAPS,
  overCap: 'skip',
  inQuietHours: 'defer',
  calendars: {},
  ...over,
});

describe('caps per contact', () => {
  it.each([
    ['nothing sent', [], []],
    ['one today', [ago(H)], []],
    ['two today: the daily cap', [ago(H), ago(2 * H)], ['1d']],
    ['two, one of them 25 h ago', [ago(H), ago(25 * H)], []],
    ['five this week, none today', [2, 3, 4, 5, 6].map((d) => ago(d * D - H)), ['7d']],
    ['six this week, two today', [ago(H), ago(2 * H), ...[2, 3, 4, 5].map((d) => ago(d * D))], ['1d', '7d']],
    ['the oldest just out of the week', [ago(H), ...[2, 3, 4].map((d) => ago(d * D)), ago(7 * D)], []],
  ])('%s', (_name, sent, reached) => {
    expect(capsReached(CAPS, sent, NOW).map((o) => o.cap.per)).toEqual(reached);
  });

  it.each([
    // The max-th newest send leaves the rolling period: the daily cap frees at (2nd newest + 1 d).
    ['daily cap', [ago(H), ago(3 * H)], at('2026-06-11T09:00:00Z')],
    [
      'the later of two caps',
      [ago(H), ago(2 * H), ...[2, 3, 4].map((d) => ago(d * D))],
      at('2026-06-13T12:00:00Z'),
    ],
  ])('defers to when the %s allows the next message', (_name, sent, until) => {
    expect(decidePolicy(policy({ overCap: 'defer' }), { now: NOW, zone: 'UTC', sentAt: sent })).toEqual({
      kind: 'defer',
      reason: 'policy_cap',
      until,
      detail: expect.stringContaining('reached'),
    });
  });

  it('skips with policy_cap when over-cap is skip', () => {
    const d = decidePolicy(policy(), { now: NOW, zone: 'UTC', sentAt: [ago(H), ago(2 * H)] });
    expect(d).toEqual({ kind: 'skip', reason: 'policy_cap', detail: '2 message(s) per 1d reached' });
  });
});

describe('quiet hours', () => {
  it.each([
    // [now (UTC), quiet?, first allowed minute (UTC)] for 21:00-08:00 Europe/Berlin
    ['summer evening 22:30 CEST', '2026-06-10T20:30:00Z', true, '2026-06-11T06:00:00Z'],
    ['after midnight 01:00 CEST', '2026-06-10T23:00:00Z', true, '2026-06-11T06:00:00Z'],
    ['07:59 CEST', '2026-06-11T05:59:00Z', true, '2026-06-11T06:00:00Z'],
    ['08:00 CEST: allowed', '2026-06-11T06:00:00Z', false, undefined],
    ['20:59 CEST: allowed', '2026-06-10T18:59:00Z', false, undefined],
    ['21:00 CEST', '2026-06-10T19:00:00Z', true, '2026-06-11T06:00:00Z'],
    ['winter 22:00 CET', '2026-01-10T21:00:00Z', true, '2026-01-11T07:00:00Z'],
    // Spring forward (2026-03-29 02:00 CET -> 03:00 CEST): the night is an hour shorter.
    ['the night clocks go forward', '2026-03-28T22:00:00Z', true, '2026-03-29T06:00:00Z'],
    // Fall back (2026-10-25 03:00 CEST -> 02:00 CET): an hour longer.
    ['the night clocks go back', '2026-10-24T21:00:00Z', true, '2026-10-25T07:00:00Z'],
  ])('%s', (_name, now, quiet, end) => {
    expect(inQuietHours(overnight, at(now), 'Europe/Berlin')).toBe(quiet);
    if (end)
      expect(quietHoursEnd(overnight, at(now), 'Europe/Berlin').toISOString()).toBe(
        end.replace('Z', '.000Z'),
      );
  });

  it.each([
    [
      'daytime quiet hours 12:00-14:00, inside',
      { from: 720, to: 840 },
      '2026-06-10T12:30:00Z',
      true,
      '2026-06-10T14:00:00Z',
    ],
    [
      'daytime quiet hours 12:00-14:00, before',
      { from: 720, to: 840 },
      '2026-06-10T11:59:00Z',
      false,
      undefined,
    ],
    // An end inside the spring-forward gap (02:30 does not exist in Berlin that night) moves past it.
    [
      'an end in the DST gap',
      { from: 22 * 60, to: 150 },
      '2026-03-29T00:30:00Z',
      true,
      '2026-03-29T01:30:00Z',
    ],
  ])('%s', (_name, hours, now, quiet, end) => {
    const q: QuietHours = { ...hours, zone: hours.from === 22 * 60 ? 'Europe/Berlin' : 'UTC' };
    expect(inQuietHours(q, at(now), q.zone)).toBe(quiet);
    if (end) expect(quietHoursEnd(q, at(now), q.zone).toISOString()).toBe(end.replace('Z', '.000Z'));
  });

  it('defers to the end of the quiet hours by default, and skips when told', () => {
    const input = { now: at('2026-06-10T20:30:00Z'), zone: 'Europe/Berlin', sentAt: [] };
    expect(decidePolicy(policy({ quietHours: overnight }), input)).toMatchObject({
      kind: 'defer',
      reason: 'quiet_hours',
      until: at('2026-06-11T06:00:00Z'),
    });
    expect(decidePolicy(policy({ quietHours: overnight, inQuietHours: 'skip' }), input)).toMatchObject({
      kind: 'skip',
      reason: 'quiet_hours',
    });
  });

  it.each([
    ['a valid zone in the field', { tz: 'America/New_York' }, 'America/New_York'],
    ['no value', {}, 'Europe/Lisbon'],
    ['a value that is no zone', { tz: 'Mars/Olympus' }, 'Europe/Lisbon'],
  ])('zone: contact reads %s', (_name, fields, zone) => {
    const p = policy({
      timezone: 'Europe/Lisbon',
      contactTimezoneField: 'tz',
      quietHours: { ...overnight, zone: 'contact' },
    });
    const isZone = (z: string) => z !== 'Mars/Olympus';
    expect(quietZone(p, fields, isZone)).toBe(zone);
  });
});

describe('replies within the grace', () => {
  const p = policy({ quietHours: overnight, exemptRepliesWithinMs: 24 * H });
  const quietNow = at('2026-06-10T20:30:00Z');
  const full = [ago(H), ago(2 * H)];
  it.each([
    ['a reply to a message of 10 minutes ago', new Date(quietNow.getTime() - 600_000), 'go'],
    ['a reply to a message of 2 days ago', new Date(quietNow.getTime() - 2 * D), 'defer'],
    ['no inbound message (not a reply)', undefined, 'defer'],
  ])('%s', (_name, inboundAt, kind) => {
    expect(decidePolicy(p, { now: quietNow, zone: 'Europe/Berlin', sentAt: full, inboundAt }).kind).toBe(
      kind,
    );
  });
});

describe('calendars', () => {
  const dates = ['2026-12-25', '2026-12-26'];
  it.each([
    ['Christmas noon UTC', '2026-12-25T12:00:00Z', 'UTC', true],
    ['24 Dec 23:30 UTC is the 25th in Berlin', '2026-12-24T23:30:00Z', 'Europe/Berlin', true],
    ['24 Dec 23:30 UTC is still the 24th in UTC', '2026-12-24T23:30:00Z', 'UTC', false],
    ['26 Dec 23:30 in New York is the 27th in UTC', '2026-12-27T04:30:00Z', 'America/New_York', true],
    ['27 Dec', '2026-12-27T12:00:00Z', 'UTC', false],
  ])('%s', (_name, now, zone, holiday) => {
    expect(isCalendarDay(dates, at(now), zone)).toBe(holiday);
  });
});
