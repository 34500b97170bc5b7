import { formatDuration, formatPlan } from './plan-format';
import type { SweepPlan } from './plan-sweep';

const plan: SweepPlan = {
  ruleId: 'dormant',
  ruleVersion: 'abc',
  mode: 'live',
  when: 'entered',
  at: '2025-06-15T12:00:00.000Z',
  filters: { status: 'active' },
  mirror: {
    contacts: 3,
    fullSync: null,
    lastFullSyncAt: '2025-06-15T00:00:00.000Z',
    lastIncrementalAt: null,
    lastEventAt: null,
    watermarkCreatedAt: null,
    freshAt: '2025-06-15T00:00:00.000Z',
    listCalls: 1,
  },
  counts: { evaluated: 3, members: 2, entering: 2, leaving: 0, gone: 0, acting: 2 },
  entering: [{ id: 'c1', name: 'Ana', phone: '5511' }],
  leaving: [],
  truncated: true,
  actions: [
    {
      on: 'member',
      action: { type: 'add-tag', tag: 'dormant' },
      contacts: 2,
      calls: 1,
      skipped: { no_change: 1 },
    },
  ],
  crmCalls: { mirrorRefresh: 1, segmentSync: 0, actions: 1, total: 2 },
  estimatedMs: 400,
  budget: { limit: 300, windowMs: 60_000, usedInWindow: 5, waitMs: 0 },
  notes: ['calls exclude directory reads'],
};

describe('formatPlan', () => {
  it('says who enters, what each action costs and how long it takes', () => {
    expect(formatPlan(plan)).toEqual([
      'plan for dormant (version abc, when: entered, live) at 2025-06-15T12:00:00.000Z',
      'filters: {"status":"active"}',
      'mirror: 3 contact(s), fresh at 2025-06-15T00:00:00.000Z, last full sync 2025-06-15T00:00:00.000Z',
      'segment: 3 evaluated, 2 member(s), 2 entering, 0 leaving, 2 get the actions',
      'entering: 2 (first 1)',
      '  Ana  5511  c1',
      'leaving: 0',
      'actions:',
      '  add-tag "dormant": 2 contact(s), 1 call(s), skipped: 1 no_change',
      'CRM calls: 1 mirror refresh + 0 segment sync + 1 action(s) = 2',
      'time at the current budget (300 per 60 s, 5 used, wait 0 ms): about 400 ms',
      'notes:',
      '  - calls exclude directory reads',
    ]);
  });

  it.each([
    [999, '999 ms'],
    [61_000, '61 s'],
    [600_000, '10 min'],
    [10_800_000, '3.0 h'],
  ])('formats %d ms as %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});
