import { compileConditions } from '../../matching/compile-conditions';
import type { BranchPlan } from './branch-plan';
import { failureFactsAt, failureReason } from './failure-facts';

describe('failureReason', () => {
  it.each<[string | null, number | null, string]>([
    ['outside_messaging_window', 422, 'outside_messaging_window'],
    ['http_status', 404, 'http_404'],
    ['http_status', null, 'http_status'],
    ['timeout', null, 'timeout'],
    [null, null, 'unknown'],
  ])('%s / %s → %s', (code, status, reason) => expect(failureReason(code, status)).toBe(reason));
});

describe('failureFactsAt', () => {
  // Action 0 with on-failure [1, 3) holding action 1, whose own on-failure is [2, 3); action 3 after.
  const plan: BranchPlan = {
    branches: [
      {
        kind: 'failure',
        at: 1,
        end: 3,
        afterWaits: 0,
        arms: [
          { label: 'on-failure', from: 1, to: 3 },
          { label: 'succeeded', from: 3, to: 3 },
        ],
      },
      {
        kind: 'failure',
        at: 2,
        end: 3,
        afterWaits: 0,
        arms: [
          { label: 'on-failure', from: 2, to: 3 },
          { label: 'succeeded', from: 3, to: 3 },
        ],
      },
    ] as BranchPlan['branches'],
  };
  const outer = {
    branch: 0,
    arm: 0,
    failure: { reason: 'outside_messaging_window', class: 'failed' as const },
  };
  const inner = { branch: 1, arm: 0, failure: { reason: 'http_500', class: 'dead' as const } };

  it.each<[string, object[], number, boolean, string | undefined]>([
    ['in the arm', [outer], 1, false, 'outside_messaging_window'],
    ['after the arm', [outer], 3, false, undefined],
    ['a branch closing the arm', [outer], 3, true, 'outside_messaging_window'],
    ['the inner arm of nested ones', [outer, inner], 2, false, 'http_500'],
    ['back in the outer arm', [outer, inner], 1, false, 'outside_messaging_window'],
    ['the arm not taken', [{ branch: 0, arm: 1 }], 1, false, undefined],
    ['no timeline', [], 1, false, undefined],
  ])('%s', (_, entries, action, branch, reason) => {
    expect(failureFactsAt(plan, entries, action, { branch })?.reason).toBe(reason);
  });

  it('conditions read failure.reason and failure.class', () => {
    const { evaluate } = compileConditions({
      all: [
        { fact: 'failure', path: '$.reason', operator: 'equal', value: 'http_404' },
        { fact: 'failure', path: '$.class', operator: 'equal', value: 'failed' },
      ],
    });
    const base = { event: { type: 'contact.created', data: {} }, now: new Date() };
    expect(evaluate({ ...base, failure: { reason: 'http_404', class: 'failed' } }, [])).toBe(true);
    expect(evaluate({ ...base, failure: { reason: 'http_404', class: 'dead' } }, [])).toBe(false);
    expect(evaluate(base, [])).toBe(false);
  });
});
