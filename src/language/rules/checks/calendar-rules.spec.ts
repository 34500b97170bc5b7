import { buildReferenceEngine } from '../../matching/reference-engine';
import { loadRulesFromFiles } from '../format/load-rules';
import { isOpen, nextOpening, type TimeWindow } from '../gates/time-window';

// Calendars of policy.yaml in windows (`window: { calendar }`) and conditions (`now.isHoliday`).
const POLICY = (dates: string) => ({
  path: 'r/policy.yaml',
  text: `calendars:\n  holidays: { dates: [${dates}] }\n  shop: { dates: [2026-08-15] }\n`,
});
const XMAS = '2026-12-24, 2026-12-25, 2026-12-26';
const rules = (text: string, dates = XMAS) =>
  loadRulesFromFiles([{ path: 'r/rules.yaml', text }, POLICY(dates)]);

const at = (iso: string) => new Date(iso);
// Thursday 24 Dec to Saturday 26 Dec 2026 are holidays; 09:00-18:00 mon-fri Berlin.
const office: TimeWindow = {
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  from: 540,
  to: 1080,
  timezone: 'Europe/Berlin',
  outside: 'wait',
  calendar: 'holidays',
  closedOn: ['2026-12-24', '2026-12-25', '2026-12-26'],
};
const night: TimeWindow = {
  ...office,
  days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  from: 1320,
  to: 360,
};

describe('a window closed on calendar dates', () => {
  it.each([
    ['an ordinary Wednesday 10:00', office, '2026-12-23T09:00:00Z', true, undefined],
    [
      'Christmas Eve (Thu) 10:00: opens Monday 28th',
      office,
      '2026-12-24T09:00:00Z',
      false,
      '2026-12-28T08:00:00Z',
    ],
    [
      'Wednesday 19:00: opens Monday, not on the holidays',
      office,
      '2026-12-23T18:00:00Z',
      false,
      '2026-12-28T08:00:00Z',
    ],
    // An overnight window belongs to the day it opens: the night of the 23rd runs into the 24th.
    [
      'the night window opened on the 23rd, at 02:00 on the 24th',
      night,
      '2026-12-24T01:00:00Z',
      true,
      undefined,
    ],
    [
      'the night window of the 24th does not open',
      night,
      '2026-12-24T22:00:00Z',
      false,
      '2026-12-27T21:00:00Z',
    ],
  ])('%s', (_name, w, now, open, next) => {
    expect(isOpen(w, at(now))).toBe(open);
    if (next) expect(nextOpening(w, at(now)).toISOString()).toBe(next.replace('Z', '.000Z'));
  });
});

describe('calendars in rules', () => {
  const WINDOWED = `rule: office-only
on: contact.created
window: { days: mon-fri, hours: "09:00-18:00", timezone: Europe/Berlin, calendar: holidays }
do: [{ add-tag: x }]
`;
  it('copies the dates into the window, and into the rule version', () => {
    const loaded = rules(WINDOWED);
    expect(loaded.problems).toEqual([]);
    expect(loaded.ruleSet!.rules[0].window).toMatchObject({
      calendar: 'holidays',
      closedOn: XMAS.split(', '),
    });
    const other = rules(WINDOWED, '2026-12-25');
    expect(other.ruleSet!.rules[0].version).not.toBe(loaded.ruleSet!.rules[0].version);
  });

  const HOLIDAY_RULES = `rule: holiday-reply
on: message.created
timezone: Europe/Berlin
if: { fact: now.isHoliday, operator: equal, value: true }
do: [{ add-tag: holiday }]
---
rule: shop-open
on: message.created
if: { fact: now.isHoliday.shop, operator: equal, value: false }
do: [{ add-tag: open }]
`;
  it.each([
    ['Christmas Day in Berlin', '2026-12-25T10:00:00Z', ['holiday-reply', 'shop-open']],
    ['23:30 UTC on the 23rd is the 24th in Berlin', '2026-12-23T23:30:00Z', ['holiday-reply', 'shop-open']],
    ['an ordinary day', '2026-12-22T10:00:00Z', ['shop-open']],
    // now.isHoliday is any calendar: the shop's closing day counts too.
    ['the shop calendar', '2026-08-15T10:00:00Z', ['holiday-reply']],
  ])('now.isHoliday on %s', async (_name, now, matched) => {
    const set = rules(HOLIDAY_RULES).ruleSet!;
    const facts = { event: { type: 'message.created', data: {} }, message: {}, now: at(now) };
    const evaluations = await set.evaluateEvent(facts);
    expect(evaluations.filter((e) => e.matched).map((e) => e.ruleId)).toEqual(matched);
    // The json-rules-engine reference agrees (the leaf is now.date in / notIn the dates).
    const { events } = await buildReferenceEngine(set.rules).run({ ...facts, contact: {} });
    expect(events.map((e) => e.params!.ruleId).sort()).toEqual([...matched].sort());
  });

  it.each([
    [
      'an unknown calendar in a window',
      'window: { calendar: holidayz }',
      3,
      21,
      'unknown calendar "holidayz" (did you mean "holidays"?)',
    ],
    [
      'an unknown calendar in a condition',
      'if: { fact: now.isHoliday.shopp, operator: equal, value: true }',
      3,
      13,
      'unknown calendar "shopp"',
    ],
    [
      'isHoliday with another operator',
      'if: { fact: now.isHoliday, operator: in, value: [true] }',
      3,
      5,
      'is true or false',
    ],
  ])('reports %s at its position', (_name, line, l, col, message) => {
    const loaded = rules(`rule: r\non: message.created\n${line}\ndo: [{ add-tag: x }]\n`);
    expect(loaded.ruleSet).toBeUndefined();
    expect(loaded.problems[0]).toMatchObject({
      file: 'r/rules.yaml',
      line: l,
      col,
      message: expect.stringContaining(message),
    });
  });

  it('refuses calendars when there is no policy', () => {
    const loaded = loadRulesFromFiles([
      {
        path: 'r/rules.yaml',
        text: 'rule: r\non: message.created\nif: { fact: now.isHoliday, operator: equal, value: true }\ndo: [{ add-tag: x }]\n',
      },
    ]);
    expect(loaded.problems[0].message).toContain('needs calendars in policy.yaml');
  });
});
