import type { RuleDefinition } from '../../../language/rules/format/rule-types';
import type { TimelineEntry } from '../../../persistence/ledger/run-timeline-entry';
import { branchView, timelineText, traceLines } from './run-page';

const rule = {
  id: 'vip',
  version: 'v1',
  conditions: {
    all: [
      { fact: 'contact', path: '$.isBlocked', operator: 'equal', value: false },
      { any: [{ fact: 'contact', path: '$.name', operator: 'equal', value: 'Ada' }] },
    ],
  },
} as unknown as RuleDefinition;
const trace = [
  {
    fact: 'contact',
    path: '$.isBlocked',
    operator: 'equal',
    expected: false,
    actual: false,
    result: true,
    at: 'all[0]',
  },
  {
    fact: 'contact',
    path: '$.name',
    operator: 'equal',
    expected: 'Ada',
    actual: 'Bob',
    result: false,
    at: 'all[1].any[0]',
  },
];

describe('a run trace as a tree', () => {
  it('shows each node with its result, depth and the value seen', () => {
    expect(traceLines({ trace, ruleVersion: 'v1' }, rule)).toEqual([
      { text: '✘ all', tone: 'bad', depth: 0 },
      { text: '✔ contact.isBlocked equal false: saw false', tone: 'ok', depth: 1 },
      { text: '✘ any', tone: 'bad', depth: 1 },
      { text: '✘ contact.name equal "Ada": saw "Bob"', tone: 'bad', depth: 2 },
    ]);
  });

  it('falls back to the flat list when the running rule has another version', () => {
    expect(traceLines({ trace, ruleVersion: 'v0' }, rule).map((l) => l.text)).toEqual([
      '✔ all[0]: contact.isBlocked equal false: saw false',
      '✘ all[1].any[0]: contact.name equal "Ada": saw "Bob"',
    ]);
  });

  it('says so when a rule has no conditions', () => {
    expect(traceLines({ trace: [], ruleVersion: 'v1' }, { ...rule, conditions: undefined })).toEqual([
      { text: '✔ no conditions: always matches', tone: 'ok', depth: 0 },
    ]);
  });
});

describe('the timing steps of a run', () => {
  it.each([
    [
      {
        at: '2026-06-10T20:30:00.000Z',
        step: 'waiting',
        for: 'policy',
        action: 0,
        reason: 'quiet_hours',
        detail: 'quiet hours 21:00-08:00 in Europe/Berlin',
        until: '2026-06-11T06:00:00.000Z',
      },
      '2026-06-10 20:30:00.000 waiting until 2026-06-11 06:00:00.000 (policy: quiet_hours, quiet hours 21:00-08:00 in Europe/Berlin) at action 0',
    ],
    [
      { at: '2026-06-11T06:00:01.000Z', step: 'resumed', for: 'policy' },
      '2026-06-11 06:00:01.000 resumed (policy)',
    ],
    [
      {
        at: '2026-06-11T06:00:01.000Z',
        step: 'skipped',
        action: 1,
        reason: 'policy_cap',
        detail: '2 message(s) per 1d reached',
      },
      '2026-06-11 06:00:01.000 skipped (policy_cap, 2 message(s) per 1d reached) at action 1',
    ],
    [
      {
        at: '2026-06-11T06:00:01.000Z',
        step: 'resumed',
        for: 'wait',
        wait: 0,
        action: 1,
        reason: 'until_event',
        event: { type: 'message.created', id: 'evt-9', data: { text: '2' } },
      },
      '2026-06-11 06:00:01.000 resumed (wait: until_event) at action 1 by message.created evt-9 "2"',
    ],
  ] as const)('%j', (entry, text) => {
    expect(timelineText(entry as TimelineEntry)).toBe(text);
  });
});

describe("a run's path through its branches", () => {
  it('joins the arms taken and shows why each was taken', () => {
    const view = branchView([
      { at: '2024-05-06T10:00:00.000Z', step: 'branch', branch: 0, arm: 1, label: 'else', trace: [trace[1]] },
      { at: '2024-05-06T12:00:00.000Z', step: 'waiting', for: 'wait', wait: 0 },
      { at: '2024-05-06T12:00:01.000Z', step: 'branch', branch: 1, arm: 0, label: 'on-event' },
    ]);
    expect(view.path).toBe('else → on-event');
    expect(view.branches.map((b) => b.label)).toEqual(['else', 'on-event']);
    expect(view.branches[0].trace).toEqual([
      { text: '✘ all[1].any[0]: contact.name equal "Ada": saw "Bob"', tone: 'bad' },
    ]);
  });

  it('has no path for a run without branches', () => {
    expect(branchView([{ at: '2024-05-06T10:00:00.000Z', step: 'limit' }])).toEqual({
      path: '',
      branches: [],
    });
  });
});
