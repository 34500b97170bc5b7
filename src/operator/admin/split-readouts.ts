// The experiment readout of every split of a rule, not only the first: each split's arms (runs
// and goal conversions from the arm entries of that split, told apart by the branch index the
// runner records) read out against that split's own control arm (`control: true`, else an arm
// named `control`, else its first arm) by experiment-readout.ts, "too few to say" included. Pure.
import { experimentReadout, type ExperimentReadout } from './experiment-readout';

/** Runs per branch and arm label (RunViews.armCountsByBranch). */
export interface BranchArmCount {
  branch: number;
  label: string;
  runs: number;
  goalReached: number;
}

interface SplitStep {
  kind: string;
  source: readonly (string | number)[];
  arms: readonly { label: string; control?: true }[];
}

export interface SplitReadout extends ExperimentReadout {
  /** The split's index among the rule's branches (the runner's `branch`). */
  branch: number;
  /** Where the split is written (`do.0`, `do.2.then.0`). */
  at: string;
}

/** One readout per split of the rule, in written order. */
export function splitReadouts(
  branches: readonly SplitStep[] | undefined,
  counts: readonly BranchArmCount[],
): SplitReadout[] {
  return (branches ?? []).flatMap((step, branch) => {
    if (step.kind !== 'split') return [];
    const control =
      step.arms.find((a) => a.control)?.label ?? step.arms.find((a) => a.label === 'arm:control')?.label;
    const arms = counts
      .filter((c) => c.branch === branch && c.label.startsWith('arm:'))
      .map((c) => ({ label: c.label, runs: c.runs, converted: c.goalReached }));
    return [{ branch, at: step.source.join('.'), ...experimentReadout(arms, control) }];
  });
}
