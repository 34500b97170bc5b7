// The rules page's line for a rule with branches or a goal: runs per arm taken in the period and
// how many of them reached the goal (conversion). Pure.
import type { RuleBranchCounts } from '../../persistence/ledger/run-rows';

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
