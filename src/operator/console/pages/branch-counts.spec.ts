// The rules page's per-arm line: run counts, goal conversions and their shares, with and without a goal.
import { branchChart, branchSummary } from './branch-counts';

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

describe('the chart of a rule with branches', () => {
  const hour = 3_600_000;
  const since = new Date('2024-05-06T00:30:00.000Z');
  const now = new Date('2024-05-06T03:10:00.000Z');
  const at = (h: number) => Date.parse('2024-05-06T00:00:00.000Z') + h * hour;
  const buckets = [
    { t: at(0), label: null, runs: 3, goalReached: 1 },
    { t: at(0), label: 'arm:a', runs: 2, goalReached: 1 },
    { t: at(0), label: 'arm:b', runs: 1, goalReached: 0 },
    { t: at(2), label: null, runs: 1, goalReached: 1 },
    { t: at(2), label: 'arm:b', runs: 1, goalReached: 1 },
  ];

  it.each<[string, boolean, string[]]>([
    ['with a goal', true, ['runs', 'arm:a', 'arm:b', 'goal reached']],
    ['without a goal', false, ['runs', 'arm:a', 'arm:b']],
  ])('%s: all runs, one series per arm, the conversions; empty buckets are 0', (_, hasGoal, labels) => {
    const chart = branchChart(buckets, hasGoal, { since, now, bucketMs: hour });
    expect(chart.t).toEqual([0, 1, 2, 3].map((h) => at(h) / 1000));
    expect(chart.series.map((s) => s.label)).toEqual(labels);
    const values = Object.fromEntries(chart.series.map((s) => [s.label, s.values]));
    expect(values['runs']).toEqual([3, 0, 1, 0]);
    expect(values['arm:a']).toEqual([2, 0, 0, 0]);
    expect(values['arm:b']).toEqual([1, 0, 1, 0]);
    if (hasGoal) expect(values['goal reached']).toEqual([1, 0, 1, 0]);
  });

  it('draws a flat line for a period without runs', () => {
    const chart = branchChart([], true, { since, now, bucketMs: hour });
    expect(chart.series).toEqual([
      { label: 'runs', values: [0, 0, 0, 0] },
      { label: 'goal reached', values: [0, 0, 0, 0] },
    ]);
  });
});
