import type { RuleDefinition } from '../../rules/rule-types';
import { branchView, traceLines } from './run-page';

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
