import type { RuleAction } from '../../language/rules/format/rule-types';
import { bulkRunForecast, callsPerRun } from './bulk-run-forecast';

const tag = { type: 'add-tag', tag: 'vip' } as unknown as RuleAction;
const message = {
  type: 'send-message',
  text: 'Hi',
  assignFirst: { strategy: 'round-robin' },
} as unknown as RuleAction;
const hook = { type: 'http-request', url: 'https://example.com', method: 'POST' } as unknown as RuleAction;
const budget = { limit: 300, windowMs: 60_000, bulkMinShare: 0.2 };

describe('bulk run forecast', () => {
  it.each([
    [[], 0],
    [[tag], 1],
    [[tag, message], 3],
    [[hook], 0],
    [[hook, tag, tag], 2],
  ])('%j calls the CRM %i times a run at most', (actions, calls) => {
    expect(callsPerRun(actions as RuleAction[])).toBe(calls);
  });

  it.each([
    // contacts, actions, calls, minutes at the whole budget, at bulk's 20%
    [30, [tag], 30, 0.1, 0.5],
    [300, [tag], 300, 1, 5],
    [1000, [tag, message], 3000, 10, 50],
    [0, [tag], 0, 0, 0],
  ])(
    '%i contacts: %j calls, %j min idle, %j min at the minimum share',
    (contacts, actions, calls, idle, share) => {
      expect(bulkRunForecast(contacts, actions as RuleAction[], budget)).toEqual({
        contacts,
        callsPerRun: callsPerRun(actions as RuleAction[]),
        calls,
        minutesIfIdle: idle,
        minutesAtMinShare: share,
      });
    },
  );

  it('scales a window other than a minute', () => {
    expect(bulkRunForecast(600, [tag], { limit: 600, windowMs: 6000, bulkMinShare: 0.5 })).toMatchObject({
      minutesIfIdle: 0.1,
      minutesAtMinShare: 0.2,
    });
  });
});
