// The rules page's experiment readout for a rule with a split and a goal: one line per arm against
// the control (difference in points with its 95% interval, relative lift, p-value), the method
// named, or "too few to say" (src/operator/admin/experiment-readout.ts decides). Pure.
import type { ExperimentReadout } from '../../admin/experiment-readout';
import type { SplitReadout } from '../../admin/split-readouts';

const pts = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)} pts`;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const p = (v: number) => (v < 0.001 ? 'p < 0.001' : `p = ${v.toFixed(3)}`);

export function experimentLines(r: ExperimentReadout): string[] {
  if (r.tooFew) return [`experiment: ${r.tooFew}`];
  const lines = r.arms.map((a) => {
    const rate = `${a.label} ${pct(a.rate)} (${pct(a.interval.low)}–${pct(a.interval.high)})`;
    const v = a.versusControl;
    if (!v) return `experiment: ${rate}, control`;
    const lift =
      v.relativeLift === undefined ? '' : `, lift ${v.relativeLift >= 0 ? '+' : ''}${pct(v.relativeLift)}`;
    return `experiment: ${rate}: ${pts(v.difference)} vs ${r.control} (95% CI ${pts(v.interval.low)} to ${pts(v.interval.high)})${lift}, ${p(v.pValue)}`;
  });
  return [...lines, `method: ${r.method}`];
}

/** Every split's lines; with more than one split, each line says which (`experiment (split do.2): ...`). */
export function splitExperimentLines(splits: readonly SplitReadout[]): string[] {
  if (splits.length === 1) return experimentLines(splits[0]);
  return splits.flatMap((s) =>
    experimentLines(s).map((line) => line.replace(/^(experiment|method):/, `$1 (split ${s.at}):`)),
  );
}
