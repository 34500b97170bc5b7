// The rules page's line for a rule with branches or a goal: runs per arm taken in the period and
// how many of them reached the goal (conversion), and the same per time bucket for its chart. Pure.
import type { RuleBranchBucket, RuleBranchCounts } from '../../../persistence/ledger/run-rows';

export interface BranchSummary {
  /** "goal 4 of 22 (18%)", or '' without a goal. */
  goal: string;
  arms: { label: string; text: string }[];
}

const share = (part: number, whole: number) => (whole > 0 ? `${Math.round((100 * part) / whole)}%` : '–');

export function branchSummary(counts: RuleBranchCounts, hasGoal: boolean): BranchSummary {
  return {
    goal: hasGoal
      ? `goal ${counts.goalReached} of ${counts.runs} (${share(counts.goalReached, counts.runs)})`
      : '',
    arms: counts.arms.map((a) => ({
      label: a.label,
      text: hasGoal
        ? `${a.runs} run(s), goal ${a.goalReached} (${share(a.goalReached, a.runs)})`
        : `${a.runs} run(s)`,
    })),
  };
}

/** The chart's bucket per period the rules page offers: about a dozen points or more each. */
export const CHART_BUCKET_MS: Record<string, number> = {
  '15m': 60_000,
  '1h': 5 * 60_000,
  '24h': 3_600_000,
  '7d': 86_400_000,
};

/** What branch-chart.js draws with uPlot: x in epoch seconds, then one column per series. */
export interface BranchChart {
  t: number[];
  series: { label: string; values: number[] }[];
}

/**
 * The chart of a rule's runs per bucket from `since` to `now`: all runs, one series per arm label
 * taken, and the goal's conversions (with a goal). Buckets without runs are 0, so lines do not skip.
 */
export function branchChart(
  buckets: readonly RuleBranchBucket[],
  hasGoal: boolean,
  window: { since: Date; now: Date; bucketMs: number },
): BranchChart {
  const { bucketMs } = window;
  const first = Math.floor(window.since.getTime() / bucketMs) * bucketMs;
  const t: number[] = [];
  for (let at = first; at <= window.now.getTime(); at += bucketMs) t.push(at);
  const column = (rows: readonly RuleBranchBucket[], value: (r: RuleBranchBucket) => number) =>
    t.map((at) => rows.filter((r) => r.t === at).reduce((sum, r) => sum + value(r), 0));
  const all = buckets.filter((b) => b.label === null);
  const labels = [...new Set(buckets.flatMap((b) => (b.label === null ? [] : [b.label])))].sort();
  return {
    t: t.map((at) => at / 1000),
    series: [
      { label: 'runs', values: column(all, (r) => r.runs) },
      ...labels.map((label) => ({
        label,
        values: column(
          buckets.filter((b) => b.label === label),
          (r) => r.runs,
        ),
      })),
      ...(hasGoal ? [{ label: 'goal reached', values: column(all, (r) => r.goalReached) }] : []),
    ],
  };
}
