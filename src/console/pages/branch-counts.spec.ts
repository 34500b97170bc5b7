// The rules page's per-arm line: run counts, goal conversions and their shares, with and without a goal.
import { branchSummary } from './branch-counts';

const counts = {
  ruleId: 'ab',
  since: '2024-05-06T00:00:00.000Z',
  runs: 20,
  goalReached: 5,
  arms: [
    { label: 'arm:a', runs: 12, goalReached: 4 },
    { label: 'arm:b', runs: 8, goalReached: 1 },
  ],
};

describe('branch counts on the rules page', () => {
  it.each([
    [true, 'goal 5 of 20 (25%)', ['arm:a 12 run(s), goal 4 (33%)', 'arm:b 8 run(s), goal 1 (13%)']],
    [false, '', ['arm:a 12 run(s)', 'arm:b 8 run(s)']],
  ])('with a goal %s: %s', (hasGoal, goal, arms) => {
    const summary = branchSummary(counts, hasGoal);
    expect(summary.goal).toBe(goal);
    expect(summary.arms.map((a) => `${a.label} ${a.text}`)).toEqual(arms);
  });

  it('shows no share for a period without runs', () => {
    expect(branchSummary({ ...counts, runs: 0, goalReached: 0, arms: [] }, true).goal).toBe(
      'goal 0 of 0 (–)',
    );
  });
});
