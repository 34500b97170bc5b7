// The dates of an iCalendar file (RFC 5545) for holiday calendars (`calendars: { x: { ics: f.ics } }`):
// each VEVENT's DTSTART date, and the following days of an all-day event whose DTEND (exclusive)
// is later. A small parser instead of a library: holiday files need only these two properties,
// and every line it does not understand is either ignored (other properties) or reported (RRULE).
// Pure, no I/O.

export interface IcsDates {
  /** Sorted, distinct YYYY-MM-DD dates. */
  dates: string[];
  /** Problems with a 1-based line number in the file. */
  problems: { line: number; message: string; severity: 'error' | 'warning' }[];
}

/** An all-day event longer than this is a mistake, not a holiday. */
const MAX_EVENT_DAYS = 366;

interface Line {
  text: string;
  line: number;
}

/** RFC 5545 §3.1: a line starting with a space or tab continues the previous one. */
function unfold(text: string): Line[] {
  const out: Line[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    if ((raw.startsWith(' ') || raw.startsWith('\t')) && out.length > 0)
      out[out.length - 1].text += raw.slice(1);
    else if (raw.trim() !== '') out.push({ text: raw, line: i + 1 });
  });
  return out;
}

/** `DTSTART;VALUE=DATE:20261225` -> name DTSTART, value 20261225 (parameters ignored). */
function property(text: string): { name: string; value: string } {
  const colon = text.indexOf(':');
  const head = colon < 0 ? text : text.slice(0, colon);
  return { name: head.split(';')[0].toUpperCase(), value: colon < 0 ? '' : text.slice(colon + 1).trim() };
}

const DATE_RE = /^(\d{4})(\d{2})(\d{2})(?:T\d{6}Z?)?$/;

/** The calendar date as written (a DATE-TIME's date part, in the zone it is written in). */
function dateOf(value: string): string | undefined {
  const m = DATE_RE.exec(value);
  if (!m) return undefined;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso ? iso : undefined;
}

function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export function icsDates(text: string): IcsDates {
  const dates = new Set<string>();
  const problems: IcsDates['problems'] = [];
  let event: { line: number; start?: string; end?: string; allDay: boolean; bad?: boolean } | undefined;
  let events = 0;
  for (const { text: raw, line } of unfold(text)) {
    const { name, value } = property(raw);
    if (name === 'BEGIN' && value.toUpperCase() === 'VEVENT') {
      event = { line, allDay: false };
      events++;
    } else if (name === 'END' && value.toUpperCase() === 'VEVENT' && event) {
      if (event.bad) {
        // reported at its DTSTART / DTEND line
      } else if (!event.start)
        problems.push({ line: event.line, message: 'VEVENT without DTSTART', severity: 'error' });
      else {
        dates.add(event.start);
        const days =
          event.end && event.allDay
            ? Math.round((Date.parse(event.end) - Date.parse(event.start)) / 86_400_000)
            : 1;
        if (days > MAX_EVENT_DAYS)
          problems.push({
            line: event.line,
            message: `an event of ${days} days is not a holiday`,
            severity: 'error',
          });
        else for (let i = 1; i < days; i++) dates.add(addDays(event.start, i));
      }
      event = undefined;
    } else if (event && (name === 'DTSTART' || name === 'DTEND')) {
      const date = dateOf(value);
      if (!date) {
        problems.push({
          line,
          message: `${name} "${value}" is not a date (YYYYMMDD or YYYYMMDDTHHMMSS)`,
          severity: 'error',
        });
        event.bad = true;
        continue;
      }
      if (name === 'DTSTART') {
        event.start = date;
        event.allDay = !value.includes('T');
      } else event.end = date;
    } else if (event && name === 'RRULE') {
      problems.push({
        line,
        message:
          'RRULE (a repeating event) is not expanded: only its first date counts; list each year instead',
        severity: 'warning',
      });
    }
  }
  if (events === 0)
    problems.push({
      line: 1,
      message: 'no VEVENT in the file: the calendar would be empty',
      severity: 'error',
    });
  return { dates: [...dates].sort(), problems };
}
