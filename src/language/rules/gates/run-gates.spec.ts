// The decisions before each action, as the runner and the rule tests both take them.
import {
  gateBefore,
  limitPeriod,
  timingPlanOf,
  unlessHolds,
  untilMatches,
  type TimingPlan,
} from './run-gates';
import type { RuleDefinition, WaitStep } from '../format/rule-types';
import type { TimeWindow } from './time-window';

const WEEKDAYS_9_TO_18: TimeWindow = {
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  from: 9 * 60,
  to: 18 * 60,
  timezone: 'UTC',
  outside: 'wait',
};
const wait: WaitStep = { beforeAction: 1, ms: 2 * 3_600_000 };
const MON_10 = new Date('2024-05-06T10:00:00Z');
const MON_20 = new Date('2024-05-06T20:00:00Z');
const TUE_09 = '2024-05-07T09:00:00.000Z';

describe('gateBefore', () => {
  const cases: [string, TimingPlan, number, boolean, Date, Record<string, unknown>][] = [
    ['no timing: go', {}, 0, false, MON_20, { kind: 'go' }],
    [
      'a wait before the action, not passed',
      { waits: [wait] },
      1,
      false,
      MON_10,
      { kind: 'wait', until: new Date('2024-05-06T12:00:00Z') },
    ],
    ['the same wait once passed', { waits: [wait] }, 1, true, MON_10, { kind: 'go' }],
    ['a wait before another action', { waits: [wait] }, 0, false, MON_10, { kind: 'go' }],
    ['rule window open', { window: WEEKDAYS_9_TO_18 }, 0, false, MON_10, { kind: 'go' }],
    [
      'rule window closed, wait',
      { window: WEEKDAYS_9_TO_18 },
      0,
      false,
      MON_20,
      { kind: 'closed', scope: 'rule', until: new Date(TUE_09) },
    ],
    [
      'rule window closed, skip',
      { window: { ...WEEKDAYS_9_TO_18, outside: 'skip' } },
      0,
      false,
      MON_20,
      { kind: 'skip-run' },
    ],
    [
      'action window closed, wait',
      { actionWindows: [{ action: 0, window: WEEKDAYS_9_TO_18 }] },
      0,
      false,
      MON_20,
      { kind: 'closed', scope: 'action', until: new Date(TUE_09) },
    ],
    [
      'action window closed, skip',
      { actionWindows: [{ action: 0, window: { ...WEEKDAYS_9_TO_18, outside: 'skip' } }] },
      0,
      false,
      MON_20,
      { kind: 'skip-action' },
    ],
    [
      'another action window',
      { actionWindows: [{ action: 1, window: WEEKDAYS_9_TO_18 }] },
      0,
      false,
      MON_20,
      { kind: 'go' },
    ],
    [
      'a wait comes before the window',
      { waits: [wait], window: WEEKDAYS_9_TO_18 },
      1,
      false,
      MON_20,
      { kind: 'wait' },
    ],
  ];
  it.each(cases)('%s', (_name, plan, action, passed, now, expected) => {
    expect(gateBefore(plan, action, () => passed, now)).toEqual(expect.objectContaining(expected));
  });

  it('says why a skip happened', () => {
    const gate = gateBefore({ window: { ...WEEKDAYS_9_TO_18, outside: 'skip' } }, 0, () => false, MON_20);
    expect(gate).toEqual(
      expect.objectContaining({ why: 'outside the window mon,tue,wed,thu,fri 09:00-18:00 UTC' }),
    );
  });
});

describe('limitPeriod', () => {
  it.each([
    ['2024-05-06T10:00:00Z', 3_600_000, '2024-05-06T11:00:00.000Z'],
    ['2024-05-06T10:59:59Z', 3_600_000, '2024-05-06T11:00:00.000Z'],
    ['2024-05-06T11:00:00Z', 3_600_000, '2024-05-06T12:00:00.000Z'],
    ['2024-05-06T10:00:01Z', 2_000, '2024-05-06T10:00:02.000Z'],
  ])('at %s with periods of %i ms the next starts at %s', (now, perMs, next) => {
    expect(limitPeriod({ max: 1, perMs, over: 'queue' }, new Date(now)).nextStart.toISOString()).toBe(next);
  });
});

describe('unless and until', () => {
  const facts = (type: string, message: Record<string, unknown>, contact: Record<string, unknown> = {}) => ({
    event: { type, data: message },
    message,
    contact,
    now: MON_10,
  });
  // Conditions as the loader normalises them (fact root + JSON path).
  const outgoing = { fact: 'message', path: '$.isOutgoing', operator: 'equal', value: true };

  it('unless holds on the contact it is given', () => {
    const w = {
      ...wait,
      unless: { all: [{ fact: 'contact', path: '$.lastInteractionAt', operator: 'exists', value: true }] },
    };
    expect(unlessHolds(w, undefined, facts('x', {}, { lastInteractionAt: '2024-05-06T09:00:00Z' }))).toBe(
      true,
    );
    expect(unlessHolds(w, undefined, facts('x', {}, { lastInteractionAt: null }))).toBe(false);
    expect(unlessHolds(wait, undefined, facts('x', {}))).toBe(false);
  });

  it.each([
    [
      'an outgoing message in the same conversation',
      'message.created',
      { isOutgoing: true, conversationId: 'c1' },
      true,
    ],
    ['an incoming one', 'message.created', { isOutgoing: false, conversationId: 'c1' }, false],
    ['one in another conversation', 'message.created', { isOutgoing: true, conversationId: 'c2' }, false],
    ['another kind of event', 'message.updated', { isOutgoing: true, conversationId: 'c1' }, false],
  ])('until: %s -> %s', (_name, type, message, expected) => {
    const until = { events: ['message.created'], where: { all: [outgoing] }, sameConversation: true };
    expect(untilMatches(until, undefined, facts(type, message), 'c1')).toBe(expected);
  });
});

describe('timingPlanOf', () => {
  it('is undefined for a rule without timing and keeps only the timing parts otherwise', () => {
    const base = { id: 'r', actions: [], timezone: 'Europe/Berlin' } as unknown as RuleDefinition;
    expect(timingPlanOf(base)).toBeUndefined();
    expect(timingPlanOf({ ...base, waits: [wait], once: 'per-contact' })).toEqual({
      timezone: 'Europe/Berlin',
      waits: [wait],
    });
  });
});
