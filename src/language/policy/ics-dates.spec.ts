import { icsDates } from './ics-dates';

const cal = (...events: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...events, 'END:VCALENDAR'].join('\r\n');
const ev = (...lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'].join('\r\n');

describe('icsDates', () => {
  it.each([
    ['an all-day event', cal(ev('DTSTART;VALUE=DATE:20261225', 'SUMMARY:Christmas')), ['2026-12-25']],
    [
      'an all-day event over two days (DTEND is exclusive)',
      cal(ev('DTSTART;VALUE=DATE:20261225', 'DTEND;VALUE=DATE:20261227')),
      ['2026-12-25', '2026-12-26'],
    ],
    [
      'a DATE-TIME start: its date as written',
      cal(ev('DTSTART;TZID=Europe/Berlin:20261231T100000')),
      ['2026-12-31'],
    ],
    ['a UTC start', cal(ev('DTSTART:20260101T000000Z', 'DTEND:20260102T000000Z')), ['2026-01-01']],
    [
      'several events, out of order and repeated',
      cal(
        ev('DTSTART;VALUE=DATE:20261226'),
        ev('DTSTART;VALUE=DATE:20261225'),
        ev('DTSTART;VALUE=DATE:20261225'),
      ),
      ['2026-12-25', '2026-12-26'],
    ],
    ['LF line ends', cal(ev('DTSTART;VALUE=DATE:20260501')).replace(/\r\n/g, '\n'), ['2026-05-01']],
    ['a folded line (RFC 5545 3.1)', cal(ev('DTSTART;VALUE=D', ' ATE:20260501')), ['2026-05-01']],
    [
      'DTSTART outside a VEVENT is not an event date',
      cal('DTSTART:20260101', ev('DTSTART;VALUE=DATE:20260501')),
      ['2026-05-01'],
    ],
  ])('%s', (_name, text, dates) => {
    const read = icsDates(text);
    expect(read.problems).toEqual([]);
    expect(read.dates).toEqual(dates);
  });

  it.each([
    ['no events', cal(), 'no VEVENT', 1],
    ['an event without DTSTART', cal(ev('SUMMARY:x')), 'VEVENT without DTSTART', 4],
    ['a date that does not exist', cal(ev('DTSTART;VALUE=DATE:20260230')), 'is not a date', 5],
    ['garbage in DTSTART', cal(ev('DTSTART:tomorrow')), 'is not a date', 5],
  ])('reports %s with its line', (_name, text, message, line) => {
    const read = icsDates(text);
    expect(read.problems).toEqual([
      expect.objectContaining({ severity: 'error', line, message: expect.stringContaining(message) }),
    ]);
  });

  it('warns that a repeating event counts only its first date', () => {
    const read = icsDates(cal(ev('DTSTART;VALUE=DATE:20261225', 'RRULE:FREQ=YEARLY')));
    expect(read.dates).toEqual(['2026-12-25']);
    expect(read.problems).toEqual([expect.objectContaining({ severity: 'warning', line: 6 })]);
  });
});
